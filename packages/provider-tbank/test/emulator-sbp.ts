import { randomUUID } from "node:crypto";
import type { Answer } from "./emulator-api.js";
import type { ChargeOutcome, EmulatedPayment, EmulatorBooks, NotificationFields } from "./emulator-books.js";

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
const refusal = (code: string, message: string, details: string): Answer => ({
  status: 200,
  body: { Success: false, ErrorCode: code, Message: message, Details: details },
});

export const EMULATOR_SBP_BANK = { BankMemberId: "100000000004", BankMemberName: "Т-Банк" } as const;

/** The emulator's bound accounts, the bank app's side (confirm, seed) and the API methods about them. */
export class EmulatorAccounts {
  readonly accounts = new Map<string, BoundAccount>();

  constructor(
    private readonly terminalKey: string,
    private readonly books: EmulatorBooks,
    private readonly notify: (fields: NotificationFields) => void,
  ) {}

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
          return refusal("9", "Неверные параметры", "Description обязателен");
        const account = this.add("succeeded");
        const link = bindingUrl(account.RequestKey);
        const data =
          body.DataType === "IMAGE"
            ? `<svg xmlns="http://www.w3.org/2000/svg"><text>${link}</text></svg>`
            : link;
        return ok({ TerminalKey: this.terminalKey, RequestKey: account.RequestKey, Data: data });
      }
      case "GetAddAccountQrState": {
        const account = typeof body.RequestKey === "string" ? this.accounts.get(body.RequestKey) : undefined;
        if (account === undefined) return refusal("9", "Неверные параметры", "RequestKey не найден");
        return ok(this.fieldsOf(account));
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
    if (payment === undefined) return refusal("7", "Платеж не найден", "PaymentId");
    const account = [...this.accounts.values()].find(
      (entry) => entry.AccountToken !== null && entry.AccountToken === body.AccountToken,
    );
    if (account === undefined || account.Status !== "ACTIVE")
      return refusal("9", "Неверные параметры", "AccountToken не найден или привязка неактивна");
    if (!payment.Recurrent || payment.Data?.QR !== "true")
      return refusal("9", "Неверные параметры", 'Платеж создан без Recurrent=Y и DATA {"QR": "true"}');
    if (payment.Status !== "NEW")
      return refusal(
        "4",
        "Запрашиваемое состояние транзакции является неверным.",
        "Изменение статуса недопустимо.",
      );
    if (account.outcome === "unavailable")
      return { status: 500, body: { Success: false, ErrorCode: "9999", Message: "Внутренняя ошибка" } };
    payment.sbp = true;
    payment.rebilled = true;
    const { outcome } = account;
    if (typeof outcome === "object") {
      this.books.move(payment, "REJECTED", outcome.decline);
      return {
        status: 200,
        body: { ...stateOf(payment), Success: false, ErrorCode: "1051", Message: outcome.decline },
      };
    }
    if (outcome === "succeeded") {
      this.books.move(payment, "AUTHORIZED");
      this.books.move(payment, "CONFIRMED");
    } else {
      payment.Status = "AUTHORIZING";
      payment.settleOnRead = outcome === "pending-until-read";
    }
    return ok(stateOf(payment));
  }

  private add(outcome: ChargeOutcome): BoundAccount {
    const account: BoundAccount = {
      RequestKey: randomUUID(),
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
    account.AccountToken = `A${randomUUID().replaceAll("-", "").toUpperCase()}`;
  }

  private fieldsOf(account: BoundAccount): NotificationFields {
    return {
      TerminalKey: this.terminalKey,
      RequestKey: account.RequestKey,
      Status: account.Status,
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
