import { migrate } from "@kopek/storage-postgres";
import { describeDatabaseError } from "../startup/storage.js";
import { type DatabaseCommandContext, failure } from "./database.js";

/** `kopek migrate`: applies pending migrations and says which, by version and name. */
export async function migrateCommand({ pool, io }: DatabaseCommandContext): Promise<number> {
  let applied: readonly number[];
  try {
    applied = (await migrate(pool)).applied;
  } catch (cause) {
    return failure(io, `migrate failed: ${describeDatabaseError(cause)}`);
  }
  if (applied.length === 0) {
    io.stdout("The database schema is current: nothing to apply.\n");
    return 0;
  }
  const { rows } = await pool.query<{ version: number; name: string }>({
    text: "SELECT version, name FROM kopek_migrations WHERE version = ANY($1) ORDER BY version",
    values: [[...applied]],
  });
  for (const row of rows) io.stdout(`applied ${String(row.version).padStart(4, "0")}_${row.name}\n`);
  return 0;
}
