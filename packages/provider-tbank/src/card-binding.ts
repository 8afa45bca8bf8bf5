import type {
  MethodSaveRequest,
  MethodSaveState,
  MethodSaves,
  ProviderError,
  StartedMethodSave,
} from "@kopek/core";
import { errAsync, okAsync, type ResultAsync } from "neverthrow";
import { z } from "zod";
import { cardCustomerKeyOf } from "./order-id.js";
import { maskOfPan, providerErrorOf } from "./payment-mapping.js";
import { cardBindingRefOf, parseCardBindingRef, storedRefOf } from "./stored-ref.js";
import type { TBankClient } from "./tbank-client.js";
import { answerSchema, cardListSchema, requestKeySchema } from "./tbank-schemas.js";

// [T] AddCustomerResponse, GetCustomerResponse: the envelope and the CustomerKey.
const customerSchema = answerSchema.extend({ CustomerKey: z.string() });
// [T] AddCardResponse_FULL: the binding's RequestKey (a string, a UUID in the example) and PaymentURL
// ("UUID, используется для работы без PCI DSS", typed `format: uri`; see `confirmationUrlOf`).
const addCardSchema = answerSchema.extend({ RequestKey: requestKeySchema, PaymentURL: z.string().min(1) });
// [T] GetAddCardStateResponse: Status NEW … COMPLETED | REJECTED; CardId and RebillId once bound.
const addCardStateSchema = answerSchema.extend({
  RequestKey: requestKeySchema,
  Status: z.string(),
  CardId: requestKeySchema.optional(),
  RebillId: requestKeySchema.optional(),
  CustomerKey: z.string().optional(),
});
type AddCardState = z.infer<typeof addCardStateSchema>;

/**
 * [T] AddCard_FULL.CheckType: `NO` binds without a `RebillId` (never chargeable later), `HOLD` answers one
 * only on terminals without 3DS, `3DS` binds 3DS cards only; `3DSHOLD` checks 3DS where the card has it and
 * makes a 0-rouble hold where it has not — any card, and a `RebillId` either way.
 */
export const ADD_CARD_CHECK_TYPE = "3DSHOLD";

const PENDING: MethodSaveState = { status: "pending" };
const FAILED: MethodSaveState = { status: "failed" };
const refuse = (message: string): ResultAsync<never, ProviderError> => errAsync({ code: "failed", message });

/**
 * Where the payer binds the card: [T] types AddCard's `PaymentURL` `format: uri`, its example is a bare
 * UUID, and no page says where a form named by a bare id lives. An absolute http(s) link is used as it is
 * (T-Bank's own early Android SDK read the `RequestKey` out of a `…/AddCard/<RequestKey>` link); anything
 * else is refused rather than guessed (README, "A payer's new method").
 */
export function confirmationUrlOf(paymentUrl: string): string | null {
  try {
    const url = new URL(paymentUrl);
    return url.protocol === "https:" || url.protocol === "http:" ? paymentUrl : null;
  } catch {
    return null;
  }
}

/**
 * Saving a card with no payment (API.md 11.5; README, "A payer's new method"): `AddCustomer` then
 * `AddCard { CheckType: "3DSHOLD" }`, the payer binds the card on T-Bank's form, and `GetAddCardState`
 * tells the outcome — with `GetCardList` for the card's digits. T-Bank then sends the payer to the
 * terminal's fixed "Success Add Card URL" / "Fail Add Card URL", not to the request's `returnUrl`.
 */
export function createCardBinding(client: TBankClient): MethodSaves {
  /**
   * [T] does not say what `AddCustomer` answers for a customer already registered (a retried start): any
   * refusal is followed by `GetCustomer`, and a customer it knows is fine. An outage stays an outage.
   */
  const registered = (customerKey: string): ResultAsync<void, ProviderError> =>
    client
      .call("AddCustomer", { CustomerKey: customerKey }, customerSchema)
      .map(() => undefined)
      .orElse((failure) =>
        failure.kind === "refused"
          ? client
              .call("GetCustomer", { CustomerKey: customerKey }, customerSchema)
              .map(() => undefined)
              .mapErr((asked) => providerErrorOf(asked.kind === "unavailable" ? asked : failure))
          : errAsync(providerErrorOf(failure)),
      );

  function start(request: MethodSaveRequest): ResultAsync<StartedMethodSave, ProviderError> {
    if (request.method !== "card")
      return refuse(
        `T-Bank adapter: only a card is saved without a payment (AddCard), not ${request.method}`,
      );
    const customerKey = cardCustomerKeyOf(request.idempotencyKey);
    return registered(customerKey).andThen(() =>
      client
        // Sent once: a repeat makes another binding (no money moves, but its link would reach nobody).
        .call("AddCard", { CustomerKey: customerKey, CheckType: ADD_CARD_CHECK_TYPE }, addCardSchema, "once")
        .mapErr(providerErrorOf)
        .andThen((added) => {
          const saveRef = cardBindingRefOf(customerKey, added.RequestKey);
          const confirmationUrl = confirmationUrlOf(added.PaymentURL);
          if (parseCardBindingRef(saveRef) === null)
            return refuse("T-Bank: AddCard answered a RequestKey that is not a UUID or a number");
          if (confirmationUrl === null)
            return refuse("T-Bank: AddCard answered a PaymentURL that is not an http(s) link");
          return okAsync({ saveRef, confirmationUrl });
        }),
    );
  }

  /** A COMPLETED binding's card from the verified list (`GetCardList`): its mask, or failed when removed. */
  function savedCard(customerKey: string, state: AddCardState, rebillId: string) {
    return client
      .call("GetCardList", { CustomerKey: customerKey }, cardListSchema)
      .map((cards): MethodSaveState => {
        const card =
          cards.find((entry) => state.CardId !== undefined && entry.CardId === state.CardId) ??
          cards.find((entry) => entry.RebillId === rebillId);
        if (card?.Status === "D") return FAILED;
        const methodMask = card === undefined ? null : maskOfPan(card.Pan);
        return { status: "saved", savedMethod: { ref: storedRefOf(customerKey, rebillId), methodMask } };
      })
      .orElse((failure) =>
        // A refusal (T-Bank lists no card of the customer): saved all the same, without its digits.
        failure.kind === "refused"
          ? okAsync<MethodSaveState>({
              status: "saved",
              savedMethod: { ref: storedRefOf(customerKey, rebillId), methodMask: null },
            })
          : errAsync(providerErrorOf(failure)),
      );
  }

  function get(saveRef: string): ResultAsync<MethodSaveState, ProviderError> {
    const ref = parseCardBindingRef(saveRef);
    if (ref === null)
      return refuse("T-Bank adapter: a card binding's saveRef is `a1:<CustomerKey>:<RequestKey>`");
    return client
      .call("GetAddCardState", { RequestKey: ref.requestKey }, addCardStateSchema)
      .mapErr(providerErrorOf)
      .andThen((state) => {
        if (state.CustomerKey !== undefined && state.CustomerKey !== ref.customerKey)
          return refuse("T-Bank: GetAddCardState answered a binding of another customer");
        if (state.Status === "REJECTED") return okAsync(FAILED);
        if (state.Status !== "COMPLETED") return okAsync(PENDING);
        // Bound without a RebillId (CheckType NO, or HOLD on a 3DS terminal): never chargeable, so not saved.
        if (state.RebillId === undefined) return okAsync(FAILED);
        return savedCard(ref.customerKey, state, state.RebillId);
      });
  }

  return { methods: ["card"], start, get };
}
