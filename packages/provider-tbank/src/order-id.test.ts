import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bindingOrderIdOf,
  cardCustomerKeyOf,
  customerKeyOfOrder,
  ORDER_ID_MAX_LENGTH,
  orderIdOf,
  requestKeyField,
  requestKeyOfOrder,
  savingOrderIdOf,
} from "./order-id.js";

describe("OrderId of an idempotency key", () => {
  it("is the key when it fits, else a stable digest within 36 characters", () => {
    expect(orderIdOf("inv_1-attempt-1")).toBe("inv_1-attempt-1");
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200 }), (key) => {
        const id = orderIdOf(key);
        expect(id.length).toBeLessThanOrEqual(ORDER_ID_MAX_LENGTH);
        expect(id).toMatch(/^[\x21-\x7e]+$/);
        expect(orderIdOf(key)).toBe(id);
      }),
    );
  });

  it("gives different keys different ids", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 37, maxLength: 80 }),
        fc.string({ minLength: 37, maxLength: 80 }),
        (a, b) => {
          fc.pre(a !== b);
          expect(orderIdOf(a)).not.toBe(orderIdOf(b));
        },
      ),
    );
  });

  it("tells a saving order (whose OrderId is its CustomerKey) from any other, whatever the key", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80 }), (key) => {
        const saving = savingOrderIdOf(key);
        expect(saving.length).toBeLessThanOrEqual(ORDER_ID_MAX_LENGTH);
        expect(customerKeyOfOrder(saving)).toBe(saving);
        expect(customerKeyOfOrder(orderIdOf(key))).toBeNull();
        expect(customerKeyOfOrder(orderIdOf(saving))).toBeNull();
      }),
    );
  });

  it("gives a card bound without a payment a CustomerKey of its own: c1-, stable, ≤ 36, never an OrderId", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80 }), (key) => {
        const customerKey = cardCustomerKeyOf(key);
        expect(customerKey).toMatch(/^c1-[0-9a-f]{33}$/);
        expect(cardCustomerKeyOf(key)).toBe(customerKey);
        expect(customerKeyOfOrder(customerKey)).toBeNull();
        for (const orderId of [orderIdOf(key), orderIdOf(customerKey), savingOrderIdOf(key)])
          expect(orderId.startsWith("c1-")).toBe(false);
      }),
    );
  });

  it("names a binding's order after its RequestKey, a UUID or a number as [T] has both, and reads it back", () => {
    expect(bindingOrderIdOf("211258")).toBe("b1-211258");
    expect(requestKeyOfOrder("b1-211258")).toBe("211258");
    expect(requestKeyField("211258")).toBe(211258);
    const uuid = "ed989549-d3be-4758-95c7-22647e03f9ec";
    expect(requestKeyOfOrder(bindingOrderIdOf(uuid) ?? "")).toBe(uuid);
    expect(requestKeyField(uuid)).toBe(uuid);
    expect(bindingOrderIdOf("not-a-key")).toBeNull();
  });
});
