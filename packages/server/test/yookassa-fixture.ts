import type { Storage } from "@kopek/core";
import { startYooKassaEmulator, type YooKassaEmulator } from "@kopek/provider-yookassa/emulator";
import { startProviderServer } from "./provider-server.js";
import { recordMethodRef } from "./test-artifacts.js";

export { type Json, shiftableClock, until } from "./provider-server.js";

/**
 * The reference server of provider-server.ts with one project whose provider is `yookassa` pointed at
 * a fresh YooKassa emulator. The emulator notifies the project's notification URL unless `notify` is
 * false. Memory storage unless `storage` is given.
 */
export async function startYooKassaServer(
  options: { storage?: Storage | undefined; notify?: boolean; saveWithoutPayment?: boolean } = {},
) {
  // A shop YooKassa enabled saving with no payment for, and a project that uses it (API.md 11.5).
  const saveWithoutPayment = options.saveWithoutPayment ?? false;
  const emulator: YooKassaEmulator = await startYooKassaEmulator({ methodSaves: saveWithoutPayment });
  // The secret scan after the suite also looks for the shop's secret key.
  recordMethodRef(emulator.secretKey);
  const server = await startProviderServer(
    {
      kind: "yookassa",
      shopId: emulator.shopId,
      secretKey: emulator.secretKey,
      storedMethods: ["card"],
      apiUrl: emulator.apiUrl,
      ...(saveWithoutPayment ? { saveWithoutPayment } : {}),
    },
    { storage: options.storage, logName: "yookassa-in-process" },
  );
  if (options.notify !== false) emulator.notifyTo(server.notificationUrl);

  return {
    ...server,
    emulator,
    /** The payer at the emulator's checkout: pays with `card` or declines; answers the 303's Location. */
    async decide(confirmationUrl: string, decision: { card: string } | { decline: string }) {
      const form =
        "card" in decision
          ? { outcome: "pay", card: decision.card }
          : { outcome: "decline", reason: decision.decline };
      const decided = await fetch(confirmationUrl, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form).toString(),
      });
      await decided.body?.cancel();
      if (decided.status !== 303) throw new Error(`checkout answered ${decided.status}`);
      return decided.headers.get("location") ?? "";
    },
    async close() {
      await server.close();
      await emulator.close();
    },
  };
}

export type YooKassaServer = Awaited<ReturnType<typeof startYooKassaServer>>;

/** The emulator's payment id in its confirmation URL (`…/checkout/{id}`). */
export const emulatorPaymentIdOf = (confirmationUrl: string) => confirmationUrl.split("/").pop() ?? "";
