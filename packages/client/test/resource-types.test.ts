import { describe, expectTypeOf, it } from "vitest";
import {
  type Customer,
  createKopekClient,
  type Invoice,
  type KopekApiError,
  type Problem,
  type Refund,
  type Subscription,
} from "../src/index.js";

// Checked by `tsc` (typecheck), not at run time: the calls are in functions never called.
const kopek = createKopekClient({ baseUrl: "http://127.0.0.1:1", apiKey: "kopek_types" });
const body = { amount: { amount: "100", currency: "RUB" } };
const idempotencyKey = "order-42";

describe("the resource methods' types", () => {
  it("require an idempotency key on every mutating method", () => {
    const _unsent = () => {
      // @ts-expect-error: no options at all
      void kopek.invoices.create(body);
      // @ts-expect-error: options without idempotencyKey
      void kopek.invoices.create(body, {});
      // @ts-expect-error: cancel without options
      void kopek.invoices.cancel("id");
      // @ts-expect-error
      void kopek.subscriptions.pause("id");
      // @ts-expect-error
      void kopek.subscriptions.cancel("id", { body: { at: "period_end" } });
      // @ts-expect-error
      void kopek.refunds.create("payment-id", {});
      // @ts-expect-error
      void kopek.customers.erase("id");
      // @ts-expect-error: a body the schema does not allow
      void kopek.invoices.create({ amount: 100 }, { idempotencyKey });
      void kopek.invoices.create(body, { idempotencyKey });
    };
  });

  it("answer the schema's types", () => {
    expectTypeOf(kopek.invoices.create).returns.resolves.toEqualTypeOf<Invoice>();
    expectTypeOf(kopek.invoices.get).returns.resolves.toEqualTypeOf<Invoice>();
    expectTypeOf(kopek.subscriptions.cancel).returns.resolves.toEqualTypeOf<Subscription>();
    expectTypeOf(kopek.refunds.create).returns.resolves.toEqualTypeOf<Refund>();
    expectTypeOf(kopek.customers.update).returns.resolves.toEqualTypeOf<Customer>();
    expectTypeOf(kopek.invoices.list).returns.toEqualTypeOf<AsyncIterable<Invoice>>();
    expectTypeOf(kopek.invoices.listPage).returns.resolves.toEqualTypeOf<{
      data: Invoice[];
      nextCursor: string | null;
    }>();
    expectTypeOf<KopekApiError["problem"]>().toEqualTypeOf<Problem | undefined>();
    expectTypeOf<KopekApiError["code"]>().toEqualTypeOf<Problem["code"] | undefined>();
  });
});
