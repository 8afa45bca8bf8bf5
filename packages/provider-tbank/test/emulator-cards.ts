import { randomUUID } from "node:crypto";
import type { Answer } from "./emulator-api.js";
import { EMULATOR_DECLINE_CARDS, type EmulatorBooks, type NotificationFields } from "./emulator-books.js";
import { missing, outage, refusal, sizeRefusal, unmatched } from "./emulator-refusals.js";

// Customers and cards bound to them without a payment, as [T] describes it: AddCustomer, GetCustomer,
// AddCard (CheckType NO | HOLD | 3DS | 3DSHOLD; answers RequestKey, PaymentId and PaymentURL), the payer's
// binding form, GetAddCardState (NEW … COMPLETED | REJECTED, CardId and RebillId), GetCardList, and
// NotificationAddCard to the terminal's notification URL; the payer is then sent to the terminal's
// "Success Add Card URL" / "Fail Add Card URL" (test/emulator-cards-page.ts).

export type CheckType = "NO" | "HOLD" | "3DS" | "3DSHOLD";
const CHECK_TYPES: readonly string[] = ["NO", "HOLD", "3DS", "3DSHOLD"];

export interface CardBinding {
  readonly RequestKey: string;
  /** [T] AddCardResponse_FULL: the binding's session is a payment of T-Bank's (of 0 RUB). */
  readonly PaymentId: string;
  readonly CustomerKey: string;
  readonly CheckType: CheckType;
  Status: "NEW" | "FORM_SHOWED" | "COMPLETED" | "REJECTED";
  CardId: string | null;
  /** Null for `CheckType` `NO`: "RebillID для рекуррентных платежей не возвращается" ([T] AddCard_FULL). */
  RebillId: string | null;
  Pan: string | null;
}

/** A card bound with `CheckType` `NO`: listed by GetCardList with no `RebillId`, so never charged. */
export interface UnchargeableCard {
  readonly CardId: string;
  readonly Pan: string;
  readonly customerKey: string;
}

/** Where the payer goes after the binding form: the terminal's settings, not the request's ([T] AddCard). */
export interface AddCardUrls {
  readonly success: string;
  readonly fail: string;
}

type Body = Record<string, unknown>;
const ok = (body: Body): Answer => ({ status: 200, body: { Success: true, ErrorCode: "0", ...body } });

/** The emulator's customers and card bindings, the payer's side (`decide`) and the API methods about them. */
export class EmulatorCardBindings {
  readonly customers = new Set<string>();
  readonly bindings = new Map<string, CardBinding>();
  readonly unchargeable: UnchargeableCard[] = [];
  /** The terminal's "Success Add Card URL" / "Fail Add Card URL" (null: the form shows the outcome). */
  addCardUrls: AddCardUrls | null;
  private readonly repeatedCustomer: "ok" | "refused";

  constructor(
    private readonly terminalKey: string,
    private readonly books: EmulatorBooks,
    private readonly notify: (fields: NotificationFields) => void,
    options: { readonly addCardUrls?: AddCardUrls; readonly repeatedCustomer?: "ok" | "refused" } = {},
  ) {
    this.addCardUrls = options.addCardUrls ?? null;
    this.repeatedCustomer = options.repeatedCustomer ?? "ok";
  }

  /** The payer opened the binding form. */
  show(requestKey: string): void {
    const binding = this.bindings.get(requestKey);
    if (binding?.Status === "NEW") binding.Status = "FORM_SHOWED";
  }

  /**
   * The payer on the binding form: saves `card` (a decline card is refused) or declines. COMPLETED binds
   * the card to the customer — with a RebillId, in the books and chargeable, unless `CheckType` was `NO`
   * (every emulated card has 3DS, and the terminal none: `HOLD`, `3DS` and `3DSHOLD` all answer one).
   * Notified either way (NotificationAddCard). Null when the binding is unknown or already decided.
   */
  decide(requestKey: string, decision: { card: string } | { decline: string }): CardBinding | null {
    const binding = this.bindings.get(requestKey);
    if (binding === undefined || !["NEW", "FORM_SHOWED"].includes(binding.Status)) return null;
    if ("decline" in decision || EMULATOR_DECLINE_CARDS[decision.card] !== undefined) {
      binding.Status = "REJECTED";
    } else {
      const pan = `${decision.card.slice(0, 6)}${"*".repeat(decision.card.length - 10)}${decision.card.slice(-4)}`;
      binding.Pan = pan;
      if (binding.CheckType === "NO") {
        const card = { CardId: this.books.newId(), Pan: pan, customerKey: binding.CustomerKey };
        this.unchargeable.push(card);
        binding.CardId = card.CardId;
      } else {
        const card = this.books.saveCard(binding.CustomerKey, pan, "succeeded");
        binding.CardId = card.CardId;
        binding.RebillId = card.RebillId;
      }
      binding.Status = "COMPLETED";
    }
    this.notify(this.notificationOf(binding));
    return binding;
  }

  answer(method: string, body: Body, formUrl: (requestKey: string) => string): Answer | null {
    switch (method) {
      case "AddCustomer": {
        const refused = this.customerKeyRefusal(body.CustomerKey);
        if (refused !== null) return refused;
        const customerKey = String(body.CustomerKey);
        // [T] does not say what a second AddCustomer of a customer answers: taken, or (`repeatedCustomer:
        // "refused"`) refused with the table's 7 "Неверный статус покупателя" (the emulator's choice).
        if (this.customers.has(customerKey) && this.repeatedCustomer === "refused")
          return refusal("7", "Неверный статус покупателя", "Покупатель уже зарегистрирован");
        this.customers.add(customerKey);
        return ok({ TerminalKey: this.terminalKey, CustomerKey: customerKey });
      }
      case "GetCustomer": {
        const refused = this.customerKeyRefusal(body.CustomerKey);
        if (refused !== null) return refused;
        if (!this.customers.has(String(body.CustomerKey))) return customerNotFound();
        return ok({ TerminalKey: this.terminalKey, CustomerKey: String(body.CustomerKey) });
      }
      case "AddCard":
        return this.addCard(body, formUrl);
      case "GetAddCardState": {
        if (body.RequestKey === undefined) return missing("RequestKey");
        const binding = typeof body.RequestKey === "string" ? this.bindings.get(body.RequestKey) : undefined;
        if (binding === undefined)
          return refusal("502", "Карта по requestKey не найдена", "Данный RequestKey не найден.");
        return ok({
          TerminalKey: this.terminalKey,
          RequestKey: binding.RequestKey,
          CustomerKey: binding.CustomerKey,
          Status: binding.Status,
          ...(binding.CardId === null ? {} : { CardId: binding.CardId }),
          ...(binding.RebillId === null ? {} : { RebillId: binding.RebillId }),
        });
      }
      case "GetCardList":
        return this.cardList(body);
      default:
        return null;
    }
  }

  private addCard(body: Body, formUrl: (requestKey: string) => string): Answer {
    const refused = this.customerKeyRefusal(body.CustomerKey);
    if (refused !== null) return refused;
    if (!this.customers.has(String(body.CustomerKey))) return customerNotFound();
    const checkType = body.CheckType ?? "NO";
    if (typeof checkType !== "string" || !CHECK_TYPES.includes(checkType)) return unmatched("CheckType");
    const binding: CardBinding = {
      RequestKey: randomUUID(),
      PaymentId: this.books.newId(),
      CustomerKey: String(body.CustomerKey),
      CheckType: checkType as CheckType,
      Status: "NEW",
      CardId: null,
      RebillId: null,
      Pan: null,
    };
    this.bindings.set(binding.RequestKey, binding);
    return ok({
      TerminalKey: this.terminalKey,
      CustomerKey: binding.CustomerKey,
      RequestKey: binding.RequestKey,
      // [T] AddCardResponse_FULL types PaymentId a number and PaymentURL a URI.
      PaymentId: Number(binding.PaymentId),
      PaymentURL: formUrl(binding.RequestKey),
    });
  }

  /** [T] GetCardList: the customer's cards, a bare array; `RebillId` only on a card that can be charged. */
  private cardList(body: Body): Answer {
    const refused = this.customerKeyRefusal(body.CustomerKey);
    if (refused !== null) return refused;
    const charged = [...this.books.cards.values()].filter((card) => card.customerKey === body.CustomerKey);
    if (charged.some((card) => card.outcome === "unavailable")) return outage();
    const cards = [
      ...charged,
      ...this.unchargeable.filter((card) => card.customerKey === body.CustomerKey),
    ].sort((a, b) => Number(a.CardId) - Number(b.CardId));
    return {
      status: 200,
      body: cards.map((card) => ({
        CardId: card.CardId,
        Pan: card.Pan,
        Status: "A",
        ...("RebillId" in card ? { RebillId: card.RebillId } : {}),
        CardType: 0,
        ExpDate: "1230",
      })),
    };
  }

  /** [T] AddCustomer / AddCard / GetCardList: `CustomerKey` required (2), ≤ 36 characters (216). */
  private customerKeyRefusal(customerKey: unknown): Answer | null {
    if (customerKey === undefined) return missing("CustomerKey");
    const fits =
      typeof customerKey === "string" && customerKey !== "" && Array.from(customerKey).length <= 36;
    return fits ? null : sizeRefusal("216", "CustomerKey");
  }

  /** [T] NotificationAddCard: the binding's outcome, its card's ids and masked number once COMPLETED. */
  private notificationOf(binding: CardBinding): NotificationFields {
    const completed = binding.Status === "COMPLETED";
    return {
      TerminalKey: this.terminalKey,
      CustomerKey: binding.CustomerKey,
      RequestKey: binding.RequestKey,
      Success: completed,
      Status: binding.Status,
      PaymentId: Number(binding.PaymentId),
      // 504 "Не удалось провести платеж при привязке карты" ([T]'s table) for a refused binding.
      ErrorCode: completed ? "0" : "504",
      ...(binding.RebillId === null ? {} : { RebillId: binding.RebillId }),
      ...(binding.CardId === null || binding.Pan === null
        ? {}
        : { CardId: binding.CardId, Pan: binding.Pan, ExpDate: "1230" }),
    };
  }
}

/** 503 "`CustomerKey` не найден" ([T]'s table): a customer AddCustomer never registered. */
const customerNotFound = () => refusal("503", "CustomerKey не найден", "Клиент не найден.");
