import { randomUUID } from "node:crypto";
import { containsCardNumber } from "@kopek/core";
import { type Answer, refusal } from "./emulator-api.js";
import type { ChargeOutcome, EmulatedPayment, EmulatorBooks, NotificationFields } from "./emulator-books.js";
import { dueDateRefusal, SBP_MAX_KOPECKS, SBP_MIN_KOPECKS, sbpAmountRefusal } from "./emulator-refusals.js";

// SBP accounts bound to the shop, as T-Bank documents them: developer.tbank.ru/eacq/api/add-account-qr
// (AddAccountQr answers a payload link and a RequestKey; the payer confirms in their bank's app; no money
// moves), …/get-add-account-qr-state (Status NEW, ACTIVE or INACTIVE; AccountToken once ACTIVE; the
// payer's bank as BankMemberId / BankMemberName), …/charge-qr (pays a payment made by Init with
// Recurrent=Y and DATA {"QR": "true"} with the AccountToken). T-Bank's SDK (pub.dev tinkoff_acquiring,
// ChargeQrRequest): after the binding a notification names the AccountToken.

export interface BoundAccount {
  readonly RequestKey: string;
  Status: "NEW" | "ACTIVE" | "INACTIVE";
  AccountToken: string | null;
  readonly BankMemberId: string;
  readonly BankMemberName: string;
  readonly outcome: ChargeOutcome;
}

type Body = Record<string, unknown>;
const ok = (body: Body): Answer => ({ status: 200, body: { Success: true, ErrorCode: "0", ...body } });

/**
 * How [T] writes a `RequestKey`: AddAccountQrResponse's example is a UUID (as NotificationQr's format), its
 * type and GetAddAccountQrState's a number (example 211258). `uuid` answers the first, `numeric` the second.
 */
export type RequestKeyForm = "uuid" | "numeric";

export const EMULATOR_SBP_BANK = { BankMemberId: "100000000004", BankMemberName: "Т-Банк" } as const;

/** The emulator's bound accounts, the bank app's side (confirm, seed) and the API methods about them. */
export class EmulatorAccounts {
  readonly accounts = new Map<string, BoundAccount>();

  constructor(
    private readonly terminalKey: string,
    private readonly books: EmulatorBooks,
    private readonly notify: (fields: NotificationFields) => void,
    private readonly requestKeys: RequestKeyForm = "uuid",
  ) {}

  /** A RequestKey as the answers write it: a number when numeric ([T]'s type), else the UUID. */
  private keyOut(requestKey: string): string | number {
    return this.requestKeys === "numeric" ? Number(requestKey) : requestKey;
  }

  /** An ACTIVE binding whose charges do `outcome`. Returns Kopek's ref `q1:<RequestKey>:<AccountToken>`. */
  seedBoundAccount(options: { readonly outcome?: ChargeOutcome } = {}): string {
    const account = this.add(options.outcome ?? "succeeded");
    this.activate(account);
    return `q1:${account.RequestKey}:${account.AccountToken}`;
  }

  /** The payer in their bank's app: confirms the binding (ACTIVE, notified) or refuses it (INACTIVE). */
  confirm(requestKey: string, confirmed: boolean): BoundAccount | null {
    const account = this.accounts.get(requestKey);
    if (account === undefined || account.Status !== "NEW") return null;
    if (confirmed) this.activate(account);
    else account.Status = "INACTIVE";
    this.notify(this.fieldsOf(account));
    return account;
  }

  answer(method: string, body: Body, bindingUrl: (requestKey: string) => string): Answer | null {
    switch (method) {
      case "AddAccountQr": {
        if (typeof body.Description !== "string" || body.Description === "")
          return refusal("2", "Отсутствуют обязательные параметры", "Description");
        const dueRefused = dueDateRefusal(body.RedirectDueDate);
        if (dueRefused !== null) return dueRefused;
        const account = this.add("succeeded");
        const link = bindingUrl(account.RequestKey);
        const data =
          body.DataType === "IMAGE"
            ? `<svg xmlns="http://www.w3.org/2000/svg"><text>${link}</text></svg>`
            : link;
        return ok({ TerminalKey: this.terminalKey, RequestKey: this.keyOut(account.RequestKey), Data: data });
      }
      case "GetAddAccountQrState": {
        const key = body.RequestKey;
        const account =
          typeof key === "string" || typeof key === "number" ? this.accounts.get(String(key)) : undefined;
        if (account === undefined) return refusal("3012", "Привязка счета не найдена", "RequestKey");
        const { NotificationType: _, Success: __, ErrorCode: ___, ...state } = this.fieldsOf(account);
        return ok({ ...state, RequestKey: this.keyOut(account.RequestKey) });
      }
      case "ChargeQr":
        return this.chargeQr(body);
      default:
        return null;
    }
  }

  private chargeQr(body: Body): Answer {
    const id = body.PaymentId;
    const payment =
      typeof id === "string" || typeof id === "number" ? this.books.payments.get(String(id)) : undefined;
    if (payment === undefined) return refusal("255", "Платеж не найден", "PaymentId");
    const account = [...this.accounts.values()].find(
      (entry) => entry.AccountToken !== null && entry.AccountToken === body.AccountToken,
    );
    if (account === undefined) return refusal("3014", "AccountToken не найден");
    if (account.Status !== "ACTIVE") return refusal("3015", "Неверный статус AccountToken");
    // ChargeQr's page: the payment is made by Init with Recurrent=Y and DATA {"QR": "true"}.
    if (!payment.Recurrent || String(payment.Data?.QR) !== "true")
      return refusal("3013", "Рекуррентные платежи недоступны", 'Init без Recurrent=Y и DATA {"QR": "true"}');
    // ChargeQr's own error list: 3037 "Повторный вызов метода недоступен".
    if (payment.Status !== "NEW") return refusal("3037", "Повторный вызов метода недоступен");
    if (payment.Amount < SBP_MIN_KOPECKS || payment.Amount > SBP_MAX_KOPECKS) return sbpAmountRefusal();
    if (account.outcome === "unavailable")
      return { status: 500, body: { Success: false, ErrorCode: "9999", Message: "Внутренняя ошибка" } };
    payment.sbp = true;
    payment.rebilled = true;
    const { outcome } = account;
    if (typeof outcome === "object") {
      this.books.move(payment, "REJECTED", outcome.decline);
      return {
        status: 200,
        body: {
          TerminalKey: this.terminalKey,
          ...stateOf(payment),
          Success: false,
          ErrorCode: "1051",
          Message: outcome.decline,
        },
      };
    }
    if (outcome === "succeeded") {
      this.books.move(payment, "AUTHORIZED");
      this.books.move(payment, "CONFIRMED");
    } else {
      payment.Status = "AUTHORIZING";
      payment.settleOnRead = outcome === "pending-until-read";
    }
    return ok({ TerminalKey: this.terminalKey, ...stateOf(payment) });
  }

  private add(outcome: ChargeOutcome): BoundAccount {
    const account: BoundAccount = {
      RequestKey: this.requestKeys === "numeric" ? this.books.newId() : randomUUID(),
      Status: "NEW",
      AccountToken: null,
      ...EMULATOR_SBP_BANK,
      outcome,
    };
    this.accounts.set(account.RequestKey, account);
    return account;
  }

  private activate(account: BoundAccount): void {
    account.Status = "ACTIVE";
    account.AccountToken = accountToken();
  }

  /** NotificationQr's fields ([T]): sent for ACTIVE and INACTIVE, `NotificationType` always LINKACCOUNT. */
  private fieldsOf(account: BoundAccount): NotificationFields {
    return {
      TerminalKey: this.terminalKey,
      RequestKey: account.RequestKey,
      Status: account.Status,
      NotificationType: "LINKACCOUNT",
      Success: true,
      ErrorCode: "0",
      ...(account.AccountToken === null
        ? {}
        : {
            AccountToken: account.AccountToken,
            BankMemberId: account.BankMemberId,
            BankMemberName: account.BankMemberName,
          }),
    };
  }
}

const stateOf = (payment: EmulatedPayment) => ({
  PaymentId: payment.PaymentId,
  OrderId: payment.OrderId,
  Amount: payment.Amount,
  Status: payment.Status,
});

/**
 * An AccountToken: [T] gives it no format beyond a string, so the emulator makes an opaque one. A hex
 * token can hold a digit run of 13–19 that passes Luhn (about 1 in 500), and API.md 4 refuses any such
 * run in `providerMethodRef` (`card_number_not_allowed`) — so such a token is drawn again rather than
 * make a test fail by chance (CI, once). Kopek's refusal of a real token of that shape is the contract's.
 */
function accountToken(): string {
  for (;;) {
    const token = `A${randomUUID().replaceAll("-", "").toUpperCase()}`;
    if (!containsCardNumber(token)) return token;
  }
}
