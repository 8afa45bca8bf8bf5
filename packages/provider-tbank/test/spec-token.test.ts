import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { tokenOf } from "../src/token.js";

// [T]'s two worked examples of the Token, read from the document itself (test/spec/openapi.json): the
// request in section "Токен" (info.description) and the notification in "Уведомления об операциях" →
// "Проверка токенов". src/token.ts must give the very token each ends with.
const spec = JSON.parse(readFileSync(new URL("./spec/openapi.json", import.meta.url), "utf8")) as {
  info: { description: string };
  tags: { name: string; description?: string }[];
};
const between = (text: string, from: string, to: string) => {
  const start = text.indexOf(from);
  return text.slice(start, text.indexOf(to, start));
};
const passwordIn = (text: string) => /"Password":\s*"([^"]+)"/.exec(text)?.[1] ?? "";

describe("T-Bank Token, as [T]'s worked examples compute it", () => {
  it("reproduces the Init request's token (nested DATA and Receipt left out)", () => {
    const section = between(spec.info.description, "# Токен", "inittokenisvalid");
    const blocks = [...section.matchAll(/```json\s*\n([\s\S]*?)```/gi)].map((match) => match[1] ?? "");
    const signedRequest = JSON.parse(blocks.at(-1) ?? "{}") as Record<string, unknown>;
    expect(signedRequest.Token).toBe("0024a00af7c350a3a67ca168ce06502aa72772456662e38696d48b56ee9c97d9");
    expect(tokenOf(signedRequest, passwordIn(section))).toBe(signedRequest.Token);
  });

  it("reproduces the notification's token (every field as a string, Password added)", () => {
    const tag = spec.tags.find((entry) => entry.name === "Уведомления об операциях")?.description ?? "";
    const section = between(tag, "## Проверка токенов", "Пример генерации токена");
    const firstList = /```\s*\n(\[\[[^\n]*\]\])\s*\n```/.exec(section)?.[1] ?? "";
    const fields = Object.fromEntries(
      [...firstList.matchAll(/\["(\w+)":\s*"([^"]*)"\]/g)].map((match) => [match[1] ?? "", match[2] ?? ""]),
    );
    expect(Object.keys(fields)).toHaveLength(11);
    const expected = /SHA-256[^`]*```\s*\n([0-9a-f]{64})\s*\n```/.exec(section)?.[1];
    expect(expected).toBe("b906d28e76c6428e37b25fcf86c0adc52c63d503013fdd632e300593d165766b");
    expect(tokenOf(fields, passwordIn(section))).toBe(expected);
  });
});
