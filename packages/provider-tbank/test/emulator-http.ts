import type { IncomingMessage, ServerResponse } from "node:http";
import type { Answer } from "./emulator-api.js";

// The emulator's HTTP plumbing, shared by its API and its pages.

export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

export function send(response: ServerResponse, answer: Answer): void {
  sendText(response, answer.status, "application/json; charset=utf-8", JSON.stringify(answer.body));
}

export function sendText(response: ServerResponse, status: number, contentType: string, body: string): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, { "content-type": contentType }).end(body);
}

/** 303 See Other to `location`: the payer's browser GETs it. */
export function redirect(response: ServerResponse, location: string): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(303, { location }).end();
}

export interface SentNotification {
  readonly url: string;
  readonly body: Readonly<Record<string, unknown>>;
  answeredOk: boolean | null;
  /** How many times it was sent: 1, and one more for each hour it was not answered `OK` (at most 24). */
  attempts: number;
}

/**
 * Sends a notification (once more): the merchant must answer 200 with the body OK, "без тегов, заглавными
 * буквами" ([T]): exactly OK. The delivery is in `inFlight` until it is done.
 */
export function deliver(sent: SentNotification, inFlight: Set<Promise<void>>): void {
  sent.attempts += 1;
  const delivery = fetch(sent.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(sent.body),
  }).then(
    async (response) => {
      sent.answeredOk = response.status === 200 && (await response.text()) === "OK";
    },
    () => {
      sent.answeredOk = false;
    },
  );
  inFlight.add(delivery);
  void delivery.finally(() => inFlight.delete(delivery));
}
