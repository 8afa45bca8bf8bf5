import { isUuid } from "@kopek/core";
import { type DatabaseCommandContext, storageFailure } from "./database.js";
import { noProject, usage } from "./projects-commands.js";

/**
 * The `--project` a command was given, as a stored project's id; else the exit code after saying
 * precisely why: missing (2, a usage error) or no such project (1) — an id that is not even a UUID
 * names no project either, so it gets the same answer rather than "is required".
 */
export async function projectArg(
  { storage, io }: Pick<DatabaseCommandContext, "storage" | "io">,
  command: string,
  projectId: string | undefined,
): Promise<string | number> {
  if (projectId === undefined || projectId === "") return usage(io, `${command} needs --project <id>`);
  if (!isUuid(projectId)) return noProject(io, projectId);
  const id = projectId.toLowerCase();
  // Only whether it exists: reading the project would decrypt its provider's secret, which the key
  // commands run without.
  const exists = await storage.projectExists(id);
  if (exists.isErr()) return storageFailure(io, exists.error);
  return exists.value ? id : noProject(io, projectId);
}
