import { createUuidV7Generator, isUuid, type Project } from "@kopek/core";
import { type DatabaseCommandContext, failure, storageFailure } from "./database.js";

export interface ProjectsCreateOptions {
  readonly name?: string | undefined;
  readonly id?: string | undefined;
  readonly storedMethodCharge?: string | undefined;
}

/** `kopek projects create`: a new project on the sandbox provider; prints only its id, for scripts. */
export async function projectsCreate(
  { storage, io }: DatabaseCommandContext,
  options: ProjectsCreateOptions,
): Promise<number> {
  const name = options.name?.trim() ?? "";
  if (name === "" || name.length > 200)
    return usage(io, "projects create needs --name <name> (1-200 characters)");
  if (options.id !== undefined && !isUuid(options.id)) return usage(io, "--id must be a UUID");
  const charge = options.storedMethodCharge ?? "true";
  if (charge !== "true" && charge !== "false")
    return usage(io, "--stored-method-charge must be true or false");
  const id = options.id?.toLowerCase() ?? createUuidV7Generator().newId();
  const existing = await storage.findProject(id);
  if (existing.isErr()) return storageFailure(io, existing.error);
  // saveProject would update an existing project: "create" must not rename one by accident.
  if (existing.value !== null) return failure(io, `project ${id} already exists`);
  const project: Project = {
    id,
    name,
    provider: { kind: "sandbox", storedMethodCharge: charge === "true" },
    createdAt: new Date(),
  };
  const saved = await storage.saveProject(project);
  if (saved.isErr()) return storageFailure(io, saved.error);
  io.stdout(`${id}\n`);
  return 0;
}

/** `kopek projects list`: one line per project, oldest first. */
export async function projectsList({ storage, io }: DatabaseCommandContext): Promise<number> {
  const projects = await storage.listProjects();
  if (projects.isErr()) return storageFailure(io, projects.error);
  if (projects.value.length === 0) io.stdout("No projects yet: kopek projects create --name <name>\n");
  for (const p of projects.value) {
    const provider = `${p.provider.kind} storedMethodCharge=${p.provider.storedMethodCharge}`;
    io.stdout(`${p.id}  ${p.name}  ${provider}  created ${p.createdAt.toISOString()}\n`);
  }
  return 0;
}

export function usage(io: DatabaseCommandContext["io"], message: string): number {
  io.stderr(`kopek: ${message} (see kopek --help)\n`);
  return 2;
}
