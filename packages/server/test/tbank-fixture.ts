import type { Storage } from "@kopek/core";
import {
  EMULATOR_SUCCESS_CARD,
  startTBankEmulator,
  type TBankEmulator,
} from "@kopek/provider-tbank/emulator";
import { startProviderServer } from "./provider-server.js";
import { recordMethodRef } from "./test-artifacts.js";

/**
 * The reference server of provider-server.ts with one project whose provider is `tbank` (card saving
 * enabled) pointed at a fresh T-Bank emulator. Kopek sends its notification URL with each payment
 * (`NotificationURL`), so the emulator notifies the server of every status change. Memory storage
 * unless `storage` is given; `storedMethods` card unless given.
 */
export async function startTBankServer(
  options: {
    storage?: Storage | undefined;
    storedMethods?: readonly ("card" | "sbp")[];
    saveWithoutPayment?: boolean;
  } = {},
) {
  const saveWithoutPayment = options.saveWithoutPayment ?? false;
  const emulator: TBankEmulator = await startTBankEmulator();
  // The secret scan after the suite also looks for the terminal's password.
  recordMethodRef(emulator.password);
  const server = await startProviderServer(
    {
      kind: "tbank",
      terminalKey: emulator.terminalKey,
      password: emulator.password,
      storedMethods: options.storedMethods ?? ["card"],
      apiUrl: emulator.apiUrl,
      ...(saveWithoutPayment ? { saveWithoutPayment } : {}),
    },
    { storage: options.storage, logName: "tbank-in-process" },
  );
  // The terminal set up as the T-Bank README says for saving with no payment: its Success and Fail Add
  // Card URLs are Kopek's /method/return, its notification URL the project's (API.md 11.5).
  if (saveWithoutPayment) {
    const back = `${server.url}/method/return`;
    emulator.cardBindings.addCardUrls = { success: back, fail: back };
    emulator.notifyTo(server.notificationUrl);
  }

  return {
    ...server,
    emulator,
    /**
     * The payer pays with `card` at the emulator's page (its form post, as a browser sends it) and is
     * sent back; resolves once T-Bank's notifications were delivered. Answers the page's status.
     */
    async payAt(confirmationUrl: string, card = EMULATOR_SUCCESS_CARD): Promise<number> {
      const paid = await fetch(confirmationUrl, {
        method: "POST",
        redirect: "manual",
        body: new URLSearchParams({ outcome: "pay", card }),
      });
      await paid.body?.cancel();
      await emulator.deliveries();
      return paid.status;
    },
    async close() {
      await server.close();
      await emulator.close();
    },
  };
}

export type TBankServer = Awaited<ReturnType<typeof startTBankServer>>;

/** T-Bank's PaymentId in the emulator's page URL (`…/new/{PaymentId}` or `…/qr/{PaymentId}`). */
export const tbankPaymentIdOf = (confirmationUrl: string) => confirmationUrl.split("/").pop() ?? "";
