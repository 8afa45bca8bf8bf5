import type { ProjectStorage } from "@kopek/core";
import { KEY_LIVE } from "./idempotency-sql.js";
import { PROJECT_COLUMNS, providerValues, toProject } from "./project-rows.js";
import { API_KEY_COLUMNS, toApiKey } from "./rows.js";
import { isUuid, type SqlContext } from "./sql-context.js";

/** Projects (their provider's secrets encrypted) and their API keys (SHA-256 only). */
export function projectStorage({ query, run, cipher, transaction }: SqlContext): ProjectStorage {
  return {
    saveProject: (project) =>
      run("saveProject", async () => {
        await query(
          "save_project",
          `INSERT INTO projects (id, name, provider, provider_secrets_ciphertext, provider_secrets_key_id, created_at,
                                 display_name, seller)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, display_name = EXCLUDED.display_name,
             seller = EXCLUDED.seller,
             provider = EXCLUDED.provider,
             provider_secrets_ciphertext = EXCLUDED.provider_secrets_ciphertext,
             provider_secrets_key_id = EXCLUDED.provider_secrets_key_id`,
          [
            project.id,
            project.name,
            ...providerValues(project, cipher),
            project.createdAt,
            project.displayName ?? null,
            project.seller === undefined ? null : JSON.stringify(project.seller),
          ],
        );
      }),

    findProject: (projectId) =>
      run("findProject", async () => {
        if (!isUuid(projectId)) return null;
        const { rows } = await query(
          "find_project",
          `SELECT ${PROJECT_COLUMNS} FROM projects WHERE id = $1`,
          [projectId],
        );
        return rows[0] === undefined ? null : toProject(rows[0], cipher);
      }),

    listProjects: () =>
      run("listProjects", async () => {
        const { rows } = await query(
          "list_projects",
          `SELECT ${PROJECT_COLUMNS} FROM projects ORDER BY created_at, id`,
          [],
        );
        return rows.map((row) => toProject(row, cipher));
      }),

    projectExists: (projectId) =>
      run("projectExists", async () => {
        if (!isUuid(projectId)) return false;
        const { rows } = await query("project_exists", "SELECT 1 FROM projects WHERE id = $1", [projectId]);
        return rows.length > 0;
      }),

    addApiKey: (key) =>
      run("addApiKey", () =>
        // The project's row is held while the key goes in, so its deletion (markProjectDeleted, which
        // updates that row) comes wholly before the key, and refuses it, or wholly after, and sees it.
        transaction(async (q) => {
          const { rows } = await q(
            "lock_project_for_key",
            "SELECT deleted_at FROM projects WHERE id = $1 FOR SHARE",
            [key.projectId],
          );
          if (rows[0] !== undefined && rows[0].deleted_at !== null) return false;
          await q(
            "add_api_key",
            `INSERT INTO api_keys (id, project_id, sha256, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (sha256) DO NOTHING`,
            [key.id, key.projectId, key.sha256, key.createdAt, key.revokedAt],
          );
          return true;
        }),
      ),

    revokeApiKey: (sha256, revokedAt) =>
      run("revokeApiKey", async () => {
        const { rows } = await query(
          "revoke_api_key",
          // An earlier revocation replaces a later one (revoke now during a grace period), never the reverse.
          "UPDATE api_keys SET revoked_at = LEAST(COALESCE(revoked_at, $2), $2) WHERE sha256 = $1 RETURNING id",
          [sha256, revokedAt],
        );
        return rows.length > 0;
      }),

    listApiKeys: (projectId) =>
      run("listApiKeys", async () => {
        if (!isUuid(projectId)) return [];
        const { rows } = await query(
          "list_api_keys",
          `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE project_id = $1 ORDER BY created_at, id`,
          [projectId],
        );
        return rows.map(toApiKey);
      }),

    // The operator's cross-project lookup (the command line's), never a request's: it joins no project.
    findApiKeys: (match) =>
      run("findApiKeys", async () => {
        if ("id" in match) {
          if (!isUuid(match.id)) return [];
          const { rows } = await query(
            "find_api_key_by_id",
            `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE id = $1`,
            [match.id],
          );
          return rows.map(toApiKey);
        }
        const { rows } = await query(
          "find_api_keys_by_prefix",
          `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE starts_with(sha256, $1) ORDER BY created_at, id`,
          [match.sha256Prefix],
        );
        return rows.map(toApiKey);
      }),

    findProjectByKeyHash: (sha256) =>
      run("findProjectByKeyHash", async () => {
        const { rows } = await query(
          "find_project_by_key_hash",
          `SELECT k.id AS key_id, p.id, p.name, p.display_name, p.seller, p.provider,
                  p.provider_secrets_ciphertext, p.created_at, p.deleted_at
             FROM api_keys k JOIN projects p ON p.id = k.project_id
            WHERE k.sha256 = $1 AND ${KEY_LIVE}`,
          [sha256],
        );
        const row = rows[0];
        return row === undefined ? null : { project: toProject(row, cipher), keyId: String(row.key_id) };
      }),
  };
}
