import { randomInt } from "node:crypto";

// The emulator's books: payments, orders and customers' saved cards, kept as T-Bank describes them
// (developer.tbank.ru/eacq/api/init, …/charge, …/check-order, …/get-card-list). Operations are
// synchronous, so parallel requests see one state.

/** What a charge of a saved card does: the emulator's stand-in for the card's issuer. */
export type ChargeOutcome =
  | "succeeded"
  | "pending"
  | "pending-until-read"
  | "unavailable"
  | { readonly decline: string };

/** Test cards of the emulator's checkout (its own choice; T-Bank's DEMO terminal has its own list). */
export const EMULATOR_DECLINE_CARDS: Readonly<Record<string, string>> = {
  "4000000000000101": "Недостаточно средств",
  "4000000000000102": "Отказ эмитента",
};
export const EMULATOR_SUCCESS_CARD = "4300000000000777";

export interface EmulatedPayment {
  readonly PaymentId: string;
  readonly OrderId: string;
  readonly Amount: number;
  Status: string;
  readonly Description: string | null;
  readonly SuccessURL: string | null;
  readonly FailURL: string | null;
  readonly NotificationURL: string | null;
  readonly CustomerKey: string | null;
  readonly Recurrent: boolean;
  /** The `Receipt` Init carried, as taken (null: none). */
  readonly Receipt: Readonly<Record<string, unknown>> | null;
  /** Paid by `Charge` (a saved card's RebillId) or `ChargeQr` (a bound account), not by a payer at a checkout. */
  rebilled: boolean;
  /** Init's DATA (e.g. `{ QR: "true" }` for a payment ChargeQr pays). */
  readonly Data: Readonly<Record<string, unknown>> | null;
  /** Init's RedirectDueDate: after it, the payment link no longer takes a payment ([T]); null: 24 hours. */
  readonly RedirectDueDate: string | null;
  /** Refunded so far, in kopecks. */
  refunded: number;
  /** Cancel answers by ExternalRequestId, so a repeat answers the same refund. */
  readonly refunds: Map<string, Record<string, unknown>>;
  pan: string | null;
  rebillId: string | null;
  settleOnRead: boolean;
  /** An SBP refund still `REFUNDING` (`sbpRefunds: "refunding"`): the status it reaches when next read. */
  refundingTo: string | null;
  sbp: boolean;
}

export interface SavedCard {
  readonly CardId: string;
  readonly Pan: string;
  readonly RebillId: string;
  readonly customerKey: string;
  readonly outcome: ChargeOutcome;
}

/** One refund `Cancel` made of a paid payment: its amount, the payment's status after it, its `Receipt`. */
export interface EmulatedRefund {
  readonly PaymentId: string;
  readonly Amount: number;
  readonly Status: string;
  readonly Receipt: Readonly<Record<string, unknown>> | null;
}

/** A notification's fields before the emulator signs it (a nested object, as `Data`, is outside the Token). */
export type NotificationFields = Record<
  string,
  string | number | boolean | Readonly<Record<string, unknown>>
>;

const FAILED = new Set(["CANCELED", "REJECTED", "DEADLINE_EXPIRED", "AUTH_FAIL", "REVERSED"]);

export class EmulatorBooks {
  readonly payments = new Map<string, EmulatedPayment>();
  readonly cards = new Map<string, SavedCard>();
  /** Every refund made, oldest first (T-Bank keeps none of its own: these are the emulator's books). */
  readonly refunds: EmulatedRefund[] = [];
  private nextId = randomInt(1_000_000_000, 2_000_000_000);

  constructor(
    private readonly terminalKey: string,
    private readonly notify: (payment: EmulatedPayment, fields: NotificationFields) => void,
  ) {}

  newId(): string {
    this.nextId += 1;
    return String(this.nextId);
  }

  /** The order's payments, oldest first. */
  paymentsOf(orderId: string): EmulatedPayment[] {
    return [...this.payments.values()].filter((payment) => payment.OrderId === orderId);
  }

  /** Whether the order has a payment that may still be paid or was paid: a second one is refused. */
  hasLivePayment(orderId: string): boolean {
    return this.paymentsOf(orderId).some((payment) => !FAILED.has(payment.Status));
  }

  /**
   * A payment as GetState finds it now (a "pending-until-read" charge has been confirmed meanwhile, a
   * `REFUNDING` SBP refund made).
   */
  read(id: string): EmulatedPayment | undefined {
    const payment = this.payments.get(id);
    if (payment?.settleOnRead) {
      payment.settleOnRead = false;
      this.move(payment, "CONFIRMED");
    }
    if (payment !== undefined && payment.refundingTo !== null) {
      this.move(payment, payment.refundingTo);
      payment.refundingTo = null;
    }
    return payment;
  }

  /** The payer opened the payment form. */
  show(id: string): void {
    const payment = this.payments.get(id);
    if (payment?.Status === "NEW") payment.Status = "FORM_SHOWED";
  }

  /** The payer at the checkout: pays with `card` (a decline card declines), or declines. */
  decide(id: string, decision: { card: string } | { decline: string }): EmulatedPayment | null {
    const payment = this.payments.get(id);
    if (payment === undefined || !["NEW", "FORM_SHOWED"].includes(payment.Status)) return null;
    // Past Init's RedirectDueDate the link takes no payment ([T] Init.RedirectDueDate).
    if (payment.RedirectDueDate !== null && Date.now() > Date.parse(payment.RedirectDueDate))
      return this.move(payment, "DEADLINE_EXPIRED");
    if ("decline" in decision) return this.move(payment, "REJECTED", decision.decline);
    const declined = EMULATOR_DECLINE_CARDS[decision.card];
    payment.pan = payment.sbp
      ? null
      : `${decision.card.slice(0, 6)}${"*".repeat(decision.card.length - 10)}${decision.card.slice(-4)}`;
    if (declined !== undefined) return this.move(payment, "REJECTED", declined);
    if (payment.Recurrent && payment.CustomerKey !== null && payment.pan !== null) {
      const card = this.saveCard(payment.CustomerKey, payment.pan, "succeeded");
      payment.rebillId = card.RebillId;
    }
    this.move(payment, "AUTHORIZED");
    return this.move(payment, "CONFIRMED");
  }

  /** The payer never paid in time (…/statuses: DEADLINE_EXPIRED). */
  expire(id: string): EmulatedPayment | null {
    const payment = this.payments.get(id);
    return payment !== undefined && ["NEW", "FORM_SHOWED"].includes(payment.Status)
      ? this.move(payment, "DEADLINE_EXPIRED")
      : null;
  }

  /** A saved card of `customerKey` whose charges do `outcome`. Returns Kopek's ref `<CustomerKey>:<RebillId>`. */
  seedSavedCard(
    options: { customerKey?: string; card?: string; outcome?: ChargeOutcome; rebillId?: string } = {},
  ): string {
    const card = options.card ?? EMULATOR_SUCCESS_CARD;
    const customerKey = options.customerKey ?? `customer-${this.newId()}`;
    const saved = this.saveCard(
      customerKey,
      `${card.slice(0, 6)}******${card.slice(-4)}`,
      options.outcome ?? "succeeded",
      options.rebillId,
    );
    return `${customerKey}:${saved.RebillId}`;
  }

  saveCard(customerKey: string, pan: string, outcome: ChargeOutcome, rebillId = this.newId()): SavedCard {
    const card: SavedCard = { CardId: this.newId(), Pan: pan, RebillId: rebillId, customerKey, outcome };
    this.cards.set(card.RebillId, card);
    return card;
  }

  /** Moves a payment to `status` and notifies, as T-Bank does on every change it reports. */
  move(payment: EmulatedPayment, status: string, declineMessage?: string): EmulatedPayment {
    payment.Status = status;
    const fields: NotificationFields = {
      TerminalKey: this.terminalKey,
      OrderId: payment.OrderId,
      Success: declineMessage === undefined,
      Status: status,
      PaymentId: Number(payment.PaymentId),
      ErrorCode: declineMessage === undefined ? "0" : "1051",
      Amount: payment.Amount,
      ...(payment.pan === null
        ? {}
        : { Pan: payment.pan, ExpDate: "1230", CardId: Number(payment.PaymentId) }),
      ...(payment.rebillId === null ? {} : { RebillId: Number(payment.rebillId) }),
      // [T] Init.CustomerKey: "Если был передан в запросе, в нотификации будет указан CustomerKey и его CardId".
      ...(payment.CustomerKey === null ? {} : { CustomerKey: payment.CustomerKey }),
      // [T]: the DATA Init carried comes back as `Data` ("не полностью в верхнем регистре"), a nested object
      // and so outside the Token; the terminal option that turns it on is taken as on.
      ...(payment.Data === null ? {} : { Data: payment.Data }),
      ...(declineMessage === undefined ? {} : { Message: declineMessage }),
    };
    this.notify(payment, fields);
    return payment;
  }
}
