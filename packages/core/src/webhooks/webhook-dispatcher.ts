import { createUuidV7Generator } from "../crypto/uuid-v7.js";
import { webhookPayload } from "../events/domain-event.js";
import { type IntervalJob, startIntervalJob } from "../jobs/interval-job.js";
import { type Clock, systemClock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { ClaimedDelivery, DeliveryAttempt, OutboxStorage } from "../ports/outbox-storage.js";
import type { WebhookTransport } from "../ports/webhook-transport.js";
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS, nextDelayMs } from "./retry-schedule.js";
import { signingSecrets } from "./webhook-endpoints.js";
import { signWebhook } from "./webhook-signature.js";

export interface WebhookDispatcherOptions {
  readonly storage: OutboxStorage;
  readonly transport: WebhookTransport;
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  /** Delays between attempts (default `DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS`). */
  readonly retryScheduleMs?: readonly number[];
  /** How long one request may take (default 10 s). */
  readonly timeoutMs?: number;
  /** How long a claimed delivery is held; must exceed `timeoutMs` (default 60 s). */
  readonly leaseMs?: number;
  readonly batchSize?: number;
  /** For the jitter; injectable so tests are exact. */
  readonly random?: () => number;
  /** Told about every attempt, for logs. */
  readonly onAttempt?: (
    attempt: DeliveryAttempt & {
      readonly url: string;
      readonly eventType: string;
      /** When the event was recorded: its age at the attempt is how long it waited in the outbox. */
      readonly eventCreatedAt: Date;
    },
  ) => void;
  /** Told when an endpoint is disabled for failing too long. */
  readonly onEndpointDisabled?: (endpoint: {
    readonly id: string;
    readonly projectId: string;
    readonly url: string;
  }) => void;
  readonly onError?: (cause: unknown) => void;
}

export interface DispatchReport {
  readonly claimed: number;
  readonly delivered: number;
  readonly retried: number;
  readonly failed: number;
}

export interface WebhookDispatcher extends IntervalJob {
  /** Sends every delivery due now, batch after batch, until none is left. */
  runOnce(): Promise<DispatchReport>;
}

/**
 * Delivers outbox events at least once (Standard Webhooks): claims due deliveries with a lease, so any
 * number of dispatchers on one storage never send one delivery at the same time; signs each attempt
 * afresh (same webhook-id, new timestamp); counts only a 2xx; backs off on the schedule, honouring
 * Retry-After; and disables an endpoint whose delivery ran out of attempts while nothing else it was
 * sent succeeded either. A crash between the send and the record means one more send: at least once.
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? createUuidV7Generator({ clock });
  const schedule = options.retryScheduleMs ?? DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const leaseMs = Math.max(options.leaseMs ?? 60_000, timeoutMs * 2);
  const batchSize = options.batchSize ?? 50;
  const random = options.random ?? Math.random;
  const { storage, transport } = options;

  async function deliver(claimed: ClaimedDelivery): Promise<DeliveryAttempt["outcome"]> {
    const { event, endpoint } = claimed;
    const body = webhookPayload(event);
    const sentAt = clock.now();
    const headers = {
      "content-type": "application/json",
      "user-agent": "Kopek-Webhooks/1",
      // A rotated-out secret signs too while its overlap lasts: either verifies (API.md 12).
      ...signWebhook(signingSecrets(endpoint, sentAt), event.id, sentAt, body),
    };
    const started = performance.now();
    const answer = await transport.send({ url: endpoint.url, headers, body, timeoutMs });
    const durationMs = Math.max(0, Math.round(performance.now() - started));
    const at = clock.now();
    const status = answer.kind === "response" ? answer.status : null;
    const ok = status !== null && status >= 200 && status < 300;
    const attempts = claimed.attempts + 1;
    const retryAfter = answer.kind === "response" ? answer.retryAfterSeconds : undefined;
    const delay = ok ? null : nextDelayMs(schedule, attempts, random, retryAfter);
    const attempt: DeliveryAttempt = {
      id: ids.newId(),
      projectId: endpoint.projectId,
      eventId: event.id,
      endpointId: endpoint.id,
      leaseToken: claimed.leaseToken,
      at,
      outcome: ok ? "delivered" : delay === null ? "failed" : "retry",
      nextAttemptAt: delay === null ? null : new Date(at.getTime() + delay),
      status,
      error: ok ? null : answer.kind === "failed" ? answer.reason : `HTTP ${status}`,
      durationMs,
    };
    const recorded = await storage.recordDeliveryAttempt(attempt);
    if (recorded.isErr()) throw recorded.error;
    options.onAttempt?.({
      ...attempt,
      url: endpoint.url,
      eventType: event.type,
      eventCreatedAt: event.createdAt,
    });
    const lastSuccess = endpoint.lastSuccessAt?.getTime() ?? 0;
    if (attempt.outcome === "failed" && lastSuccess < event.createdAt.getTime()) {
      const reason = `every attempt to deliver event ${event.id} failed (last: ${attempt.error})`;
      const disabled = await storage.disableWebhookEndpoint(endpoint.projectId, endpoint.id, at, reason);
      if (disabled.isErr()) throw disabled.error;
      options.onEndpointDisabled?.(endpoint);
    }
    return attempt.outcome;
  }

  async function runBatches(): Promise<DispatchReport> {
    const report = { claimed: 0, delivered: 0, retried: 0, failed: 0 };
    for (;;) {
      const now = clock.now();
      const claim = {
        now,
        limit: batchSize,
        leaseToken: ids.newId(),
        leaseExpiresAt: new Date(now.getTime() + leaseMs),
      };
      const batch = await storage.claimDueDeliveries(claim);
      if (batch.isErr()) throw batch.error;
      report.claimed += batch.value.length;
      const outcomes = await Promise.allSettled(batch.value.map(deliver));
      for (const outcome of outcomes) {
        if (outcome.status === "rejected") options.onError?.(outcome.reason);
        else report[outcome.value === "retry" ? "retried" : outcome.value] += 1;
      }
      if (batch.value.length < batchSize) return report;
    }
  }

  const timer = startIntervalJob(runBatches, (cause) => options.onError?.(cause));
  return { ...timer, runOnce: timer.runOnce };
}
