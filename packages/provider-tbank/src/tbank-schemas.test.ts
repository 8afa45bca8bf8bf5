import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkedOrderSchema, checkOrderSchema } from "./tbank-schemas.js";

// [T]'s own example answer of CheckOrder (test/spec/openapi.json, CheckOrderResponse).
const spec = JSON.parse(readFileSync(new URL("../test/spec/openapi.json", import.meta.url), "utf8"));
const example =
  spec.paths["/v2/CheckOrder"].post.responses["200"].content["application/json"].examples.CheckOrderResponse
    .value;

describe("CheckOrder as [T] types it", () => {
  it("reads [T]'s example: a payment's Success is the string \"true\", its ErrorCode the number 0", () => {
    expect(example.Payments[0]).toMatchObject({ Success: "true", ErrorCode: 0 });
    for (const schema of [checkOrderSchema, checkedOrderSchema])
      expect(schema.parse(example).Payments).toEqual([
        { PaymentId: "124671934", Amount: 13660, Status: "NEW", Success: "true", ErrorCode: 0 },
      ]);
  });

  it("refuses a payment typed as the envelope is (Success a boolean, ErrorCode a string): not what [T] says", () => {
    const enveloped = { ...example, Payments: [{ ...example.Payments[0], Success: true, ErrorCode: "0" }] };
    expect(checkedOrderSchema.safeParse(enveloped).success).toBe(false);
  });
});
