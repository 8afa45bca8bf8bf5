import { describe, expect, it } from "vitest";
import { KopekApiError } from "./kopek-api-error.js";
import { sendRequest, type Transport } from "./send-request.js";

/** A transport whose fetch answers from a script, one answer per call, counting the calls. */
function scripted(answers: (() => Response)[], retryDelayMs = 1) {
  const calls: Request[] = [];
  const transport: Transport = {
    baseUrl: "http://kopek.test",
    apiKey: "kopek_test",
    maxRetries: 2,
    retryDelayMs,
    fetch: async (input) => {
      calls.push(input as Request);
      const answer = answers.shift();
      if (answer === undefined) throw new Error("no more answers scripted");
      return answer();
    },
  };
  return { transport, calls };
}

const problem =
  (status: number, code: string, headers: Record<string, string> = {}) =>
  () =>
    Response.json({ code, detail: code, status }, { status, headers });
const ok = () => Response.json({ id: "inv_1" });

describe("sendRequest", () => {
  it("sends the API key, and the query without its undefined values", async () => {
    const { transport, calls } = scripted([ok]);
    await sendRequest(transport, {
      method: "GET",
      path: "/v1/invoices",
      query: { limit: 3, cursor: undefined },
    });
    expect(calls[0]?.url).toBe("http://kopek.test/v1/invoices?limit=3");
    expect(calls[0]?.headers.get("authorization")).toBe("Bearer kopek_test");
    expect(calls[0]?.headers.has("idempotency-key")).toBe(false);
  });

  it("honours Retry-After given as an HTTP date", async () => {
    const soon = new Date(Date.now() - 1000).toUTCString();
    const { transport, calls } = scripted([problem(429, "rate_limited", { "Retry-After": soon }), ok]);
    await expect(sendRequest(transport, { method: "GET", path: "/v1/invoices" })).resolves.toEqual({
      id: "inv_1",
    });
    expect(calls).toHaveLength(2);
  });

  it("does not wait out a Retry-After over a minute: the 429 is thrown", async () => {
    const { transport, calls } = scripted([problem(429, "rate_limited", { "Retry-After": "120" }), ok]);
    await expect(sendRequest(transport, { method: "GET", path: "/v1/invoices" })).rejects.toMatchObject({
      status: 429,
      code: "rate_limited",
    });
    expect(calls).toHaveLength(1);
  });

  it("throws other 5xx and 409s at once, and a body that is no problem as problem undefined", async () => {
    for (const answer of [
      problem(500, "internal_error"),
      problem(502, "provider_error"),
      problem(409, "invalid_state"),
      () => new Response("<html>bad gateway</html>", { status: 502 }),
    ]) {
      const { transport, calls } = scripted([answer, ok]);
      const error = await sendRequest(transport, { method: "GET", path: "/v1/invoices" }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(KopekApiError);
      expect(calls).toHaveLength(1);
    }
    const { transport } = scripted([() => new Response("<html>bad gateway</html>", { status: 502 })]);
    await expect(sendRequest(transport, { method: "GET", path: "/" })).rejects.toMatchObject({
      status: 502,
      problem: undefined,
      code: undefined,
    });
  });

  it("stops retrying when the signal is aborted during a wait", async () => {
    const { transport, calls } = scripted([problem(503, "storage_unavailable"), ok], 10_000);
    const controller = new AbortController();
    const sent = sendRequest(transport, { method: "GET", path: "/v1/invoices", signal: controller.signal });
    setTimeout(() => controller.abort(new Error("given up")), 10);
    await expect(sent).rejects.toThrow("given up");
    expect(calls).toHaveLength(1);
  });

  it("gives up after maxRetries, with the last answer's error", async () => {
    const unavailable = problem(503, "storage_unavailable");
    const { transport, calls } = scripted([unavailable, unavailable, unavailable, ok]);
    await expect(
      sendRequest(transport, { method: "POST", path: "/v1/invoices", body: {}, idempotencyKey: "k" }),
    ).rejects.toMatchObject({ status: 503 });
    expect(calls.map((call) => call.headers.get("idempotency-key"))).toEqual(["k", "k", "k"]);
  });
});
