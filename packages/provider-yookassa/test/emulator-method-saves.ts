import { newMethodId, paymentMethod } from "./emulator-methods.js";
import { methodSavePage } from "./emulator-pages.js";
import {
  EMULATOR_DECLINE_CARDS,
  type EmulatorBooks,
  type Json,
  type Notification,
} from "./emulator-payments.js";
import type { MethodSaveCreation } from "./emulator-validation.js";

// Saving a bank card with no payment ("Привязка банковской карты на нулевую сумму", card entered on
// YooKassa's page: yookassa.ru/developers/payment-acceptance/scenario-extensions/recurring-payments/
// save-payment-method/save-without-payment/bank-card; API reference "Создание способа оплаты"):
// POST /payment_methods answers the method `pending` with a `confirmation_url`; the payer enters the card
// there; the method becomes `active` + `saved: true` (with `card`) or `inactive` + `saved: false`, and the
// payer goes back to `return_url`. An active method is charged like any saved one (`payment_method_id`).

/** The payer's choice at the save page: save this card, or give up (the method is not saved). */
export type MethodSaveDecision = { readonly card: string } | "decline";

/** What the save page answers: a page, or a redirect back to the shop. */
export type SavePageAnswer =
  | { readonly status: number; readonly html: string }
  | { readonly status: number; readonly text: string }
  | { readonly status: 303; readonly location: string };

export class EmulatorMethodSaves {
  /** Every method created with POST /payment_methods, by its id, as the API answers it now. */
  readonly saves = new Map<string, Json>();
  private readonly returnUrls = new Map<string, string>();

  constructor(
    /** Whether the shop may save methods with no payment (YooKassa enables it per shop). */
    readonly enabled: boolean,
    private readonly books: EmulatorBooks,
    private readonly shopId: string,
    private readonly pageUrlOf: (id: string) => string,
    private readonly notify: (notification: Notification) => void,
  ) {}

  /** POST /payment_methods, checked: a pending bank card method whose page waits for the payer. */
  create(request: MethodSaveCreation): Json {
    const id = newMethodId();
    const method: Json = {
      type: "bank_card",
      id,
      saved: false,
      status: "pending",
      holder: { account_id: this.shopId, gateway_id: "100500" },
      confirmation: { type: "redirect", confirmation_url: this.pageUrlOf(id) },
      ...(request.metadata === null ? {} : { metadata: request.metadata }),
    };
    this.saves.set(id, method);
    this.returnUrls.set(id, request.returnUrl);
    // Readable with GET /payment_methods/{id} at once; chargeable only once active.
    this.books.keepMethod(method);
    return { ...method };
  }

  /**
   * The payer decides a pending save (what the page's forms do; tests call it directly). A card saves
   * (`active`, `saved: true`, its first six and last four digits); `"decline"` or a decline card (the
   * check failed) leaves it `inactive`, `saved: false`. Null when the method is unknown or decided.
   */
  decide(id: string, decision: MethodSaveDecision): Json | null {
    const method = this.saves.get(id);
    if (method === undefined || method.status !== "pending") return null;
    // "Присутствует, когда привязка ожидает подтверждения от пользователя" (PaymentMethodsConfirmation).
    delete method.confirmation;
    if (decision === "decline" || EMULATOR_DECLINE_CARDS[decision.card] !== undefined) {
      Object.assign(method, { saved: false, status: "inactive" });
      return { ...method };
    }
    Object.assign(method, paymentMethod({ type: "bank_card", id, status: "active", card: decision.card }));
    // The bank-card page, step 13: "уведомление о сохранении способа оплаты — payment_method.active".
    this.notify({ event: "payment_method.active", object: { ...method } });
    return { ...method };
  }

  /**
   * The page at `confirmation_url`. GET shows it; a POSTed form decides and sends the payer back to
   * `return_url` (303). A decline card on the page is refused there and may be tried again, as YooKassa's
   * page does by default ("предлагает попробовать привязать эту или другую карту еще раз").
   */
  page(method: string, id: string, form: URLSearchParams | null): SavePageAnswer {
    const save = this.saves.get(id);
    const returnUrl = this.returnUrls.get(id);
    if (save === undefined || returnUrl === undefined) return { status: 404, text: "No such payment method" };
    if (method !== "POST" || form === null) return { status: 200, html: methodSavePage(save, null) };
    const outcome = form.get("outcome");
    const card = (form.get("card") ?? "").replace(/\s+/g, "");
    if (outcome === "save" && /^[0-9]{16}$/.test(card)) {
      const reason = EMULATOR_DECLINE_CARDS[card];
      if (reason !== undefined && save.status === "pending") {
        return { status: 200, html: methodSavePage(save, `The card was declined (${reason}): try again.`) };
      }
      this.decide(id, { card });
      return { status: 303, location: returnUrl };
    }
    if (outcome === "decline") {
      this.decide(id, "decline");
      return { status: 303, location: returnUrl };
    }
    return { status: 400, text: "Bad form" };
  }
}
