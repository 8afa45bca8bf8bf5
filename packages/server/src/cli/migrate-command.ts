import { distributeForCitus, migrate } from "@kopek/storage-postgres";
import { describeDatabaseError } from "../startup/storage.js";
import { type DatabaseCommandContext, failure } from "./database.js";

/**
 * `kopek migrate [--citus]`: applies pending migrations and says which, by version and name. With
 * `--citus` (a Citus coordinator, docs/scaling.md) it then makes `projects` and `api_keys` reference
 * tables and distributes every tenant table by project_id, saying which; run again, it does nothing.
 */
export async function migrateCommand(
  { pool, io }: DatabaseCommandContext,
  { citus = false }: { readonly citus?: boolean } = {},
): Promise<number> {
  let applied: readonly number[];
  try {
    applied = (await migrate(pool)).applied;
  } catch (cause) {
    return failure(io, `migrate failed: ${describeDatabaseError(cause)}`);
  }
  if (applied.length === 0) {
    io.stdout("The database schema is current: nothing to apply.\n");
  } else {
    const { rows } = await pool.query<{ version: number; name: string }>({
      text: "SELECT version, name FROM kopek_migrations WHERE version = ANY($1) ORDER BY version",
      values: [[...applied]],
    });
    for (const row of rows) io.stdout(`applied ${String(row.version).padStart(4, "0")}_${row.name}\n`);
  }
  if (!citus) return 0;
  let result: Awaited<ReturnType<typeof distributeForCitus>>;
  try {
    result = await distributeForCitus(pool);
  } catch (cause) {
    return failure(io, `migrate --citus failed: ${describeDatabaseError(cause)}`);
  }
  for (const table of result.reference) io.stdout(`reference table ${table}\n`);
  for (const table of result.distributed) io.stdout(`distributed ${table} by project_id\n`);
  if (result.reference.length + result.distributed.length === 0)
    io.stdout("Citus: every table is already distributed: nothing to do.\n");
  return 0;
}
