import type { MethodUpdateAddress } from "@kopek/core";
import { basePathOf } from "./page-html.js";

/** The save a payer left the method-update page for, as its cookie names it. */
export interface PendingSave extends MethodUpdateAddress {
  readonly saveId: string;
}

const NAME = "kopek_method_save";
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const VALUE = new RegExp(`^(${UUID})\\.(${UUID})\\.(${UUID})\\.(${UUID})$`);
/** As long as the link it names can be used (API.md 11.5: 24 hours). */
const MAX_AGE_SECONDS = 24 * 60 * 60;

/**
 * The `Set-Cookie` value that remembers, in the payer's browser, which link and save they left for the
 * provider: the link's address is its capability already, so the cookie tells nothing the payer lacks.
 * HttpOnly, `SameSite=Lax` (sent on the provider's top-level redirect back), `Secure` under https, and
 * only for the pages' path.
 */
export function pendingSaveCookie(save: PendingSave, publicUrl: string): string {
  const value = [save.projectId, save.subscriptionId, save.updateId, save.saveId].join(".");
  const secure = publicUrl.startsWith("https:") ? "; Secure" : "";
  return `${NAME}=${value}; Path=${basePathOf(publicUrl)}/method; Max-Age=${MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${secure}`;
}

/** The save a request's `Cookie` header names, or null (none, or not one Kopek wrote). */
export function readPendingSave(header: string | undefined): PendingSave | null {
  for (const part of (header ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name !== NAME) continue;
    const match = VALUE.exec(rest.join("="));
    if (match === null) return null;
    const [, projectId = "", subscriptionId = "", updateId = "", saveId = ""] = match;
    return { projectId, subscriptionId, updateId, saveId };
  }
  return null;
}
