import fc from "fast-check";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { generateWebhookSecret, signWebhook, verifyWebhook } from "./webhook-signature.js";

const now = new Date("2026-11-22T09:30:00.000Z");

describe("webhook signatures (Standard Webhooks)", () => {
  it("are accepted by the independent standardwebhooks implementation", () => {
    fc.assert(
      fc.property(
        fc.jsonValue().map((v) => JSON.stringify(v)),
        fc.uuid(),
        (body, id) => {
          const secret = generateWebhookSecret();
          const headers = signWebhook(secret, id, new Date(), body);
          expect(() => new Webhook(secret).verify(body, headers)).not.toThrow();
        },
      ),
      { numRuns: 50 },
    );
  });

  it("verify what standardwebhooks signs", () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ type: "invoice.paid", data: { id: "x" } });
    const signatureHeader = new Webhook(secret).sign("msg_1", now, body);
    const headers = {
      "webhook-id": "msg_1",
      "webhook-timestamp": String(now.getTime() / 1000),
      "webhook-signature": signatureHeader,
    };
    expect(verifyWebhook(secret, headers, body, { now })._unsafeUnwrap().id).toBe("msg_1");
    expect(verifyWebhook(secret, new Headers(headers), body, { now }).isOk()).toBe(true);
  });

  it("refuse a changed body, another secret, an old timestamp, missing headers and a bad secret", () => {
    const secret = generateWebhookSecret();
    const headers = signWebhook(secret, "msg_2", now, "{}");
    const code = (result: ReturnType<typeof verifyWebhook>) => (result.isErr() ? result.error.code : "ok");
    expect(code(verifyWebhook(secret, headers, "{} ", { now }))).toBe("invalid_signature");
    expect(code(verifyWebhook(generateWebhookSecret(), headers, "{}", { now }))).toBe("invalid_signature");
    expect(code(verifyWebhook(secret, headers, "{}", { now: new Date(now.getTime() + 301_000) }))).toBe(
      "timestamp_out_of_tolerance",
    );
    expect(
      code(
        verifyWebhook(secret, headers, "{}", {
          now: new Date(now.getTime() + 301_000),
          toleranceSeconds: 600,
        }),
      ),
    ).toBe("ok");
    expect(code(verifyWebhook(secret, { ...headers, "webhook-id": undefined }, "{}", { now }))).toBe(
      "missing_headers",
    );
    expect(code(verifyWebhook("not-a-secret", headers, "{}", { now }))).toBe("invalid_secret");
  });

  it("accept any one matching signature among several (secret rotation)", () => {
    const [oldSecret, newSecret] = [generateWebhookSecret(), generateWebhookSecret()];
    const a = signWebhook(oldSecret, "msg_3", now, "{}");
    const b = signWebhook(newSecret, "msg_3", now, "{}");
    const both = { ...a, "webhook-signature": `${b["webhook-signature"]} ${a["webhook-signature"]}` };
    expect(verifyWebhook(oldSecret, both, "{}", { now }).isOk()).toBe(true);
    expect(verifyWebhook(newSecret, both, "{}", { now }).isOk()).toBe(true);
  });
});
