import type { OutboxStorage } from "@kopek/core";
import {
  ENDPOINT_COLUMNS,
  previousSecretContext,
  secretContext,
  toClaimedDelivery,
  toEndpoint,
  toEvent,
} from "./outbox-rows.js";
import { CLAIM_DUE_DELIVERIES, DISCOVER_DUE_DELIVERIES, RECORD_DELIVERY_ATTEMPT } from "./outbox-sql.js";
import { claimByProject } from "./project-claims.js";
import { isUuid, type SqlContext } from "./sql-context.js";

/** Webhook endpoints (secrets encrypted at rest) and the deliveries of outbox events. */
export function outboxStorage(sql: SqlContext): OutboxStorage {
  const { query, run, cipher, fail } = sql;
  return {
    saveWebhookEndpoint: (e) =>
      run("saveWebhookEndpoint", async () => {
        // `last_success_at` is the dispatcher's: never named here.
        await query(
          "save_webhook_endpoint",
          `INSERT INTO webhook_endpoints (id, project_id, url, secret_ciphertext, secret_key_id, enabled, created_at,
             disabled_at, disabled_reason, previous_secret_ciphertext, previous_secret_expires_at, event_types,
             description) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
           ON CONFLICT (project_id, id) DO UPDATE SET url = EXCLUDED.url, secret_ciphertext = EXCLUDED.secret_ciphertext,
             secret_key_id = EXCLUDED.secret_key_id, enabled = EXCLUDED.enabled, disabled_at = EXCLUDED.disabled_at,
             disabled_reason = EXCLUDED.disabled_reason,
             previous_secret_ciphertext = EXCLUDED.previous_secret_ciphertext,
             previous_secret_expires_at = EXCLUDED.previous_secret_expires_at,
             event_types = EXCLUDED.event_types, description = EXCLUDED.description`,
          [
            e.id,
            e.projectId,
            e.url,
            cipher.encrypt(e.secret, secretContext(e.id)),
            cipher.currentKeyId,
            e.enabled,
            e.createdAt,
            e.disabledAt,
            e.disabledReason,
            e.previousSecret === null ? null : cipher.encrypt(e.previousSecret, previousSecretContext(e.id)),
            e.previousSecretExpiresAt,
            e.eventTypes,
            e.description,
          ],
        );
      }),
    findWebhookEndpoint: (projectId, id) =>
      run("findWebhookEndpoint", async () => {
        if (!isUuid(projectId) || !isUuid(id)) return null;
        const { rows } = await query(
          "find_webhook_endpoint",
          `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE project_id = $1 AND id = $2`,
          [projectId, id],
        );
        return rows[0] === undefined ? null : toEndpoint(rows[0], cipher);
      }),
    listWebhookEndpoints: (projectId) =>
      run("listWebhookEndpoints", async () => {
        if (!isUuid(projectId)) return [];
        const { rows } = await query(
          "list_webhook_endpoints",
          `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE project_id = $1 ORDER BY created_at, id`,
          [projectId],
        );
        return rows.map((row) => toEndpoint(row, cipher));
      }),
    removeWebhookEndpoint: (projectId, id) =>
      run("removeWebhookEndpoint", async () => {
        if (!isUuid(projectId) || !isUuid(id)) return false;
        const { rowCount } = await query(
          "remove_webhook_endpoint",
          "DELETE FROM webhook_endpoints WHERE project_id = $1 AND id = $2",
          [projectId, id],
        );
        return rowCount === 1;
      }),
    disableWebhookEndpoint: (projectId, id, at, reason) =>
      run("disableWebhookEndpoint", async () => {
        if (!isUuid(projectId) || !isUuid(id)) return;
        await query(
          "disable_webhook_endpoint",
          `UPDATE webhook_endpoints SET enabled = false, disabled_at = $3, disabled_reason = $4
            WHERE project_id = $1 AND id = $2 AND enabled`,
          [projectId, id, at, reason],
        );
      }),
    claimDueDeliveries: (claim) =>
      run("claimDueDeliveries", () =>
        claimByProject(sql, {
          name: "due_deliveries",
          discover: DISCOVER_DUE_DELIVERIES,
          claim: CLAIM_DUE_DELIVERIES,
          values: [claim.leaseToken, claim.leaseExpiresAt],
          now: claim.now,
          limit: claim.limit,
          toResult: (row) => toClaimedDelivery(row, cipher, claim.leaseToken),
        }),
      ),
    recordDeliveryAttempt: (a) =>
      run("recordDeliveryAttempt", async () => {
        const { rows } = await query<{ recorded: number }>(
          "record_delivery_attempt",
          RECORD_DELIVERY_ATTEMPT,
          [
            a.eventId,
            a.endpointId,
            a.leaseToken,
            a.outcome === "retry" ? "pending" : a.outcome,
            a.nextAttemptAt,
            a.status,
            a.error,
            a.at,
            a.projectId,
            a.id,
            a.outcome,
            a.durationMs,
          ],
        );
        if (rows[0]?.recorded !== 1)
          fail({
            code: "lease_lost",
            message: `storage-postgres: the lease no longer holds delivery of event ${a.eventId}`,
          });
      }),
    listEventDeliveries: (projectId) =>
      run("listEventDeliveries", async () => {
        if (!isUuid(projectId)) return [];
        const { rows } = await query(
          "list_event_deliveries",
          `SELECT e.id, e.project_id, e.type, e.created_at, e.data,
                  COALESCE(json_agg(json_build_object('endpointId', d.endpoint_id, 'state', d.state,
                    'attempts', d.attempts, 'lastStatus', d.last_status)) FILTER (WHERE d.event_id IS NOT NULL), '[]') AS deliveries
             FROM events e LEFT JOIN webhook_deliveries d ON d.project_id = $1 AND d.event_id = e.id
            WHERE e.project_id = $1 GROUP BY e.project_id, e.id ORDER BY e.id`,
          [projectId],
        );
        return rows.map((row) => ({ event: toEvent(row), deliveries: row.deliveries as never }));
      }),
  };
}
