import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startYooKassaEmulator, type YooKassaEmulator } from "./emulator.js";
import { seedListedPayment } from "./emulator-list.js";

// The emulator's GET /payments through raw HTTP, as yookassa.ru/developers/using-api/lists describes it.
let emulator: YooKassaEmulator;
beforeAll(async () => {
  emulator = await startYooKassaEmulator();
});
afterAll(() => emulator.close());

const auth = () => `Basic ${Buffer.from(`${emulator.shopId}:${emulator.secretKey}`).toString("base64")}`;
const list = async (query: Record<string, string>) => {
  const response = await fetch(`${emulator.apiUrl}/payments?${new URLSearchParams(query)}`, {
    headers: { authorization: auth() },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe("YooKassa emulator: GET /payments", () => {
  it("pages newest first within created_at bounds, next_cursor until the end", async () => {
    const at = Date.UTC(2021, 5, 1);
    const ids = [0, 1, 2, 3, 4].map((i) =>
      seedListedPayment(emulator.books, { createdAt: new Date(at + i * 1000) }),
    );
    seedListedPayment(emulator.books, { createdAt: new Date(at + 10_000) });
    const window = {
      "created_at.gte": new Date(at).toISOString(),
      "created_at.lt": new Date(at + 10_000).toISOString(),
      limit: "2",
    };
    const seen: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 3; page += 1) {
      const { status, body } = await list(cursor === undefined ? window : { ...window, cursor });
      expect(status).toBe(200);
      expect(body.type).toBe("list");
      seen.push(...(body.items as { id: string }[]).map((item) => item.id));
      cursor = body.next_cursor as string | undefined;
      if (page < 2) expect(typeof cursor).toBe("string");
    }
    expect(cursor).toBeUndefined();
    expect(seen).toEqual([...ids].reverse());
  });

  it("refuses a limit outside 1–100, a malformed date and an unknown cursor as invalid_request", async () => {
    for (const [query, parameter] of [
      [{ limit: "0" }, "limit"],
      [{ limit: "101" }, "limit"],
      [{ limit: "ten" }, "limit"],
      [{ "created_at.gte": "yesterday" }, "created_at.gte"],
      [{ "created_at.lte": "2021-06-01" }, "created_at.lte"],
      [{ cursor: "not-a-cursor" }, "cursor"],
      [{ status: "paid" }, "status"],
    ] as const) {
      const { status, body } = await list(query);
      expect(status).toBe(400);
      expect(body).toMatchObject({ type: "error", code: "invalid_request", parameter });
    }
  });
});
