import type { Receipt } from "@kopek/core";
import type { Page } from "playwright-core";
import { type ProviderServer, startProviderServer } from "./provider-server.js";
import { startTBankServer } from "./tbank-fixture.js";
import { startYooKassaServer } from "./yookassa-fixture.js";

// The providers the end-to-end suite (checkout-subscription-e2e.test.ts) runs on, one entry each: how
// to start a server with a project on it, how the payer pays on its page, and what its own books say
// it received, in one shape for every provider. A provider joins the suite by adding an entry here.

/** A receipt as a provider's books hold it: the customer's email and each item's description, quantity and unit price (minor units). */
export interface SeenReceipt {
  readonly email: string | null;
  readonly items: readonly (readonly [description: string, quantity: string, unitMinor: string])[];
}

/** One payment the provider made: its amount (minor units), whether by a saved method, its receipt. */
export interface SeenCharge {
  readonly amount: string;
  readonly bySavedMethod: boolean;
  readonly receipt: SeenReceipt | null;
}

/** One refund the provider made: its amount (minor units), status and the receipt it came with. */
export interface SeenRefund {
  readonly amount: string;
  readonly status: string;
  readonly receipt: SeenReceipt | null;
}

export interface ProviderRun {
  readonly server: ProviderServer;
  /** In Chromium, once the payer chose "Pay with card" or "Pay with SBP" on Kopek's page: pays on the provider's page. */
  payAtProvider(page: Page, method: "card" | "sbp"): Promise<void>;
  /** Every payment the provider made, oldest first, from its own books. */
  charges(): SeenCharge[];
  /** Every refund the provider made, oldest first, from its own books. */
  refunds(): SeenRefund[];
  close(): Promise<void>;
}

export interface ProviderUnderTest {
  readonly name: string;
  /** The `methodMask` of the card paid with, as the provider tells it. */
  readonly cardMask: RegExp;
  start(): Promise<ProviderRun>;
}

// biome-ignore lint/suspicious/noExplicitAny: the emulators' books are the providers' JSON objects.
type Json = Record<string, any>;

const seenKopekReceipt = (receipt: Receipt | null): SeenReceipt | null =>
  receipt === null
    ? null
    : {
        email: receipt.customer.email,
        items: receipt.items.map((item) => [item.description, item.quantity, item.amount.amount] as const),
      };

/** YooKassa's major-unit value ("1499.00") in minor units ("149900"), by string arithmetic. */
export const minorOf = (value: string) => {
  const [whole = "0", fraction = ""] = value.split(".");
  return String(BigInt(whole + fraction.padEnd(2, "0")));
};

const seenYooKassaReceipt = (receipt: Json | undefined): SeenReceipt | null =>
  receipt === undefined
    ? null
    : {
        email: receipt.customer?.email ?? null,
        items: (receipt.items as Json[]).map(
          (item) => [item.description, item.quantity, minorOf(item.amount.value)] as const,
        ),
      };

/** T-Bank's `Receipt` (FFD 1.05: `Email`, `Items` with `Name`, `Quantity`, `Price` in kopecks). */
const seenTBankReceipt = (receipt: Json | null): SeenReceipt | null =>
  receipt === null
    ? null
    : {
        email: receipt.Email ?? null,
        items: (receipt.Items as Json[]).map(
          (item) => [item.Name, String(item.Quantity), String(item.Price)] as const,
        ),
      };

// A paid T-Bank payment stays paid through its refunds (PARTIAL_REFUNDED, REFUNDED).
const TBANK_PAID = new Set(["CONFIRMED", "PARTIAL_REFUNDED", "REFUNDED"]);

export const PROVIDERS: readonly ProviderUnderTest[] = [
  {
    name: "the sandbox",
    // A card of its own per payment.
    cardMask: /^\d{4} \d\d\*\* \*\*\*\* \d{4}$/,
    async start() {
      const server = await startProviderServer({ kind: "sandbox", storedMethodCharge: true });
      return {
        server,
        async payAtProvider(page) {
          await page.waitForURL(/\/sandbox\/checkout\/pay_[0-9a-f]{32}$/);
          await page.getByRole("button", { name: "Succeed" }).click();
        },
        charges: () => [
          ...server.ledger
            .payments()
            .filter((p) => p.status === "succeeded")
            .map((p) => ({
              amount: p.money.amount,
              bySavedMethod: false,
              receipt: seenKopekReceipt(p.receipt),
            })),
          ...server.ledger.charges().map((c) => ({
            amount: c.money.amount,
            bySavedMethod: true,
            receipt: seenKopekReceipt(c.receipt),
          })),
        ],
        refunds: () =>
          server.ledger
            .refunds()
            .map((r) => ({ amount: r.money.amount, status: r.status, receipt: seenKopekReceipt(r.receipt) })),
        close: () => server.close(),
      };
    },
  },
  {
    name: "the YooKassa emulator",
    cardMask: /^5555 55\*\* \*\*\*\* 4477$/,
    async start() {
      const server = await startYooKassaServer();
      const { books } = server.emulator;
      return {
        server,
        async payAtProvider(page) {
          await page.waitForURL(new RegExp(`^${server.emulator.url}/checkout/[0-9a-f-]{36}$`));
          await page.getByRole("button", { name: "Pay", exact: true }).click();
        },
        charges: () =>
          [...books.payments.values()]
            .map((p) => p as Json)
            .filter((p) => p.status === "succeeded")
            .map((p) => ({
              amount: minorOf(p.amount.value),
              // A payment with payment_method_id has no confirmation: nobody was asked.
              bySavedMethod: p.confirmation === undefined,
              receipt: seenYooKassaReceipt(books.receipts.get(p.id)),
            })),
        refunds: () =>
          [...books.refunds.values()].map((r: Json) => ({
            amount: minorOf(r.amount.value),
            status: String(r.status),
            receipt: seenYooKassaReceipt(books.receipts.get(r.id)),
          })),
        close: () => server.close(),
      };
    },
  },
  {
    name: "the T-Bank emulator",
    cardMask: /^4300 00\*\* \*\*\*\* 0777$/,
    async start() {
      const server = await startTBankServer();
      const { books } = server.emulator;
      return {
        server,
        async payAtProvider(page, method) {
          // A card form from Init's PaymentURL; for SBP, the bank app's confirmation of GetQr's link.
          const path = method === "card" ? "new" : "qr";
          await page.waitForURL(new RegExp(`^${server.emulator.url}/${path}/[0-9]+$`));
          await page.getByRole("button", { name: "Pay", exact: true }).click();
        },
        charges: () =>
          [...books.payments.values()]
            .filter((p) => TBANK_PAID.has(p.Status))
            .map((p) => ({
              amount: String(p.Amount),
              bySavedMethod: p.rebilled,
              receipt: seenTBankReceipt(p.Receipt),
            })),
        // Cancel refunds at once: a refund in the books went through.
        refunds: () =>
          books.refunds.map((r) => ({
            amount: String(r.Amount),
            status: TBANK_PAID.has(r.Status) ? "succeeded" : r.Status,
            receipt: seenTBankReceipt(r.Receipt),
          })),
        close: () => server.close(),
      };
    },
  },
];
