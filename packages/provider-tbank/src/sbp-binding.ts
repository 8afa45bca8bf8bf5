import type { ProviderError, StoredMethodDescription } from "@kopek/core";
import { errAsync, okAsync, type ResultAsync } from "neverthrow";
import { z } from "zod";
import { requestKeyField } from "./order-id.js";
import { providerErrorOf } from "./payment-mapping.js";
import { parseBoundAccountRef } from "./stored-ref.js";
import type { TBankClient } from "./tbank-client.js";
import { answerSchema, requestKeySchema } from "./tbank-schemas.js";

// developer.tbank.ru/eacq/api/get-add-account-qr-state, with the answer's fields as T-Bank's own SDK
// (pub.dev tinkoff_acquiring, GetAddAccountQrStateResponse / AccountQrToken) names them: Status NEW,
// PROCESSING, ACTIVE or INACTIVE; AccountToken once ACTIVE; BankMemberId and BankMemberName, the payer's bank.
export const accountStateSchema = answerSchema.extend({
  RequestKey: requestKeySchema,
  Status: z.string(),
  AccountToken: z.string().min(1).optional(),
  BankMemberId: z.string().optional(),
  BankMemberName: z.string().optional(),
});
export type AccountState = z.infer<typeof accountStateSchema>;

const refuse = (message: string): ResultAsync<never, ProviderError> => errAsync({ code: "failed", message });
/** A ref that names no method T-Bank holds for this shop: the request's mistake (422), not T-Bank's. */
const unknownRef = (message: string): ResultAsync<never, ProviderError> =>
  errAsync({ code: "failed", message, unknownRef: true });

/** SBP accounts bound to the shop (`AddAccountQr`), asked about by the binding's `RequestKey`. */
export function createBoundAccounts(client: TBankClient) {
  const stateOf = (requestKey: string): ResultAsync<AccountState, ProviderError> =>
    client
      .call("GetAddAccountQrState", { RequestKey: requestKeyField(requestKey) }, accountStateSchema)
      .mapErr(providerErrorOf);

  /** A bound account as the payer knows it: their bank's name, as T-Bank tells it for an active binding. */
  function describe(request: { readonly ref: string }): ResultAsync<StoredMethodDescription, ProviderError> {
    const ref = parseBoundAccountRef(request.ref);
    if (ref === null)
      return unknownRef("T-Bank adapter: a stored SBP ref is `q1:<RequestKey>:<AccountToken>`");
    return stateOf(ref.requestKey)
      .mapErr((error) => ({ ...error, message: error.message.replaceAll(request.ref, "[method]") }))
      .andThen((state) =>
        state.Status === "ACTIVE" && state.AccountToken === ref.accountToken
          ? okAsync<StoredMethodDescription>({ kind: "masked", mask: maskOfAccount(state) })
          : refuse(`T-Bank: the SBP account binding is ${state.Status}, not ACTIVE`),
      );
  }

  return { stateOf, describe };
}

/** The mask of a bound account: `СБП · <bank>` from T-Bank's BankMemberName, or just `СБП`. */
export function maskOfAccount(state: AccountState): string {
  const bank = state.BankMemberName?.trim();
  return bank === undefined || bank === "" ? "СБП" : `СБП · ${bank}`;
}
