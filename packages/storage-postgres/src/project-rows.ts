import type { Project, ProviderSettings, SellerDetails } from "@kopek/core";
import { toBytes, toDate } from "./rows.js";
import type { TokenCipher } from "./token-cipher.js";

type Row = Record<string, unknown>;

export const PROJECT_COLUMNS =
  "id, name, display_name, seller, provider, provider_secrets_ciphertext, created_at, deleted_at";

// The fields of any provider's settings that are secrets: kept encrypted, apart from the rest
// (YooKassa's secretKey, T-Bank's terminal password).
const SECRET_FIELDS: readonly string[] = ["secretKey", "password"];

/** Bound into each ciphertext, so a provider secret moved to another project (or column) fails to decrypt. */
function secretsContext(projectId: string): string {
  return `provider-secrets:${projectId}`;
}

/**
 * `provider`, `provider_secrets_ciphertext` and `provider_secrets_key_id` of a project: the settings
 * without their secret fields, and those fields as encrypted JSON (null when there are none).
 */
export function providerValues(
  project: Project,
  cipher: TokenCipher,
): [string, Buffer | null, string | null] {
  const settings: Record<string, unknown> = {};
  const secrets: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(project.provider)) {
    if (SECRET_FIELDS.includes(field)) secrets[field] = value;
    else settings[field] = value;
  }
  if (Object.keys(secrets).length === 0) return [JSON.stringify(settings), null, null];
  const ciphertext = cipher.encrypt(JSON.stringify(secrets), secretsContext(project.id));
  return [JSON.stringify(settings), ciphertext, cipher.currentKeyId];
}

export function toProject(row: Row, cipher: TokenCipher): Project {
  const id = String(row.id);
  const ciphertext = row.provider_secrets_ciphertext;
  const secrets =
    ciphertext === null || ciphertext === undefined
      ? {}
      : (JSON.parse(cipher.decrypt(toBytes(ciphertext), secretsContext(id))) as Record<string, unknown>);
  return {
    id,
    name: String(row.name),
    // Absent rather than undefined when null: a project read back equals the one saved.
    ...(typeof row.display_name === "string" ? { displayName: row.display_name } : {}),
    ...(row.seller === null || row.seller === undefined ? {} : { seller: row.seller as SellerDetails }),
    // The column holds what `providerValues` wrote, from a ProviderSettings: trusted, as every row is.
    provider: { ...(row.provider as object), ...secrets } as unknown as ProviderSettings,
    createdAt: toDate(row.created_at),
    ...(row.deleted_at === null || row.deleted_at === undefined ? {} : { deletedAt: toDate(row.deleted_at) }),
  };
}
