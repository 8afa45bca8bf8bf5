import { createKopek } from "@kopek/core";
import { createSandboxProvider } from "@kopek/provider-sandbox";
import { createMemoryStorage } from "@kopek/storage-memory";
import { expect, it } from "vitest";
import { kopekAfterListen } from "./kopek-after-listen.js";

const storage = createMemoryStorage();
const made: string[] = [];
const make = (publicUrl: string) => {
  made.push(publicUrl);
  return createKopek({ storage, providerFor: () => createSandboxProvider(), publicUrl });
};

it("answers a request that arrives before bind with the URL given to bind, never a placeholder", async () => {
  const late = kopekAfterListen(make);
  let settled = false;
  const early = late.kopek.handle({ method: "GET", path: "/v1/nothing" }).then((response) => {
    settled = true;
    return response;
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(settled).toBe(false);
  late.bind("http://127.0.0.1:41234");
  expect((await early).status).toBe(401);
  expect(made).toEqual(["http://127.0.0.1:41234"]); // handled by the bound Kopek; no placeholder made
  expect(() => late.bind("http://127.0.0.1:1")).toThrow(/bound twice/);
});

it("renders errors synchronously even before bind", () => {
  const late = kopekAfterListen(make);
  expect(late.kopek.errorResponse({ code: "not_found" }, "req-1").status).toBe(404);
});
