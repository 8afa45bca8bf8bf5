import { createUuidV7Generator, newWebhookEndpoint, type Storage, type StorageError } from "@kopek/core";
import { okAsync, type ResultAsync } from "neverthrow";

const ids = createUuidV7Generator();

export interface FileWebhook {
  readonly url: string;
  readonly secret: string;
}

/**
 * Saves a project's webhook endpoints from the projects file, matched by URL: a URL already there gets
 * the file's secret (its id, enabled state and history stay, so a restart never duplicates it or
 * re-enables an endpoint the dispatcher disabled); a new URL becomes a new enabled endpoint.
 * Endpoints the file does not name (e.g. added with `kopek webhooks add`) are left alone.
 */
export function saveWebhookEndpoints(
  storage: Storage,
  projectId: string,
  webhooks: readonly FileWebhook[],
  now: Date,
): ResultAsync<void, StorageError> {
  if (webhooks.length === 0) return okAsync(undefined);
  return storage.listWebhookEndpoints(projectId).andThen((existing) =>
    webhooks.reduce<ResultAsync<void, StorageError>>((saved, { url, secret }) => {
      const current = existing.find((endpoint) => endpoint.url === url);
      if (current?.secret === secret) return saved;
      const endpoint = current
        ? { ...current, secret }
        : newWebhookEndpoint({ id: ids.newId(), projectId, url, secret, createdAt: now });
      return saved.andThen(() => storage.saveWebhookEndpoint(endpoint));
    }, okAsync(undefined)),
  );
}
