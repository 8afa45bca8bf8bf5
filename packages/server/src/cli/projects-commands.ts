import {
  createUuidV7Generator,
  displayNameProblem,
  isUuid,
  type Project,
  type ProviderSettings,
  providerNotificationUrl,
} from "@kopek/core";
import { loadConfig } from "../startup/config.js";
import { needsNotificationUrl } from "../startup/notification-url.js";
import { type DatabaseCommandContext, failure, storageFailure } from "./database.js";
import { describeProvider, type ProviderOptions, providerFromOptions } from "./provider-options.js";
import { type SellerOptions, sellerFromOptions } from "./seller-options.js";

export interface ProjectsCreateOptions extends ProviderOptions {
  readonly name?: string | undefined;
  /** The merchant's name on the payment page; on update, "" removes it. */
  readonly displayName?: string | undefined;
  readonly id?: string | undefined;
  /** The seller's details payers see (`--seller-…`); on update, "" removes a field. */
  readonly seller?: SellerOptions;
}

/** `{ displayName }` to spread into a project (nothing when absent), or why it cannot be one. */
function displayNameOption(text: string): { readonly displayName?: string } | string {
  const displayName = text.trim();
  const problem = displayNameProblem(displayName);
  return problem === null ? { displayName } : `--display-name ${problem}`;
}

/**
 * `kopek projects create`: a new project, on the sandbox unless `--provider` says otherwise. Prints
 * only its id on stdout, for scripts; the notification URL of a real provider goes to stderr.
 */
export async function projectsCreate(
  { storage, io }: DatabaseCommandContext,
  options: ProjectsCreateOptions,
): Promise<number> {
  const name = options.name?.trim() ?? "";
  if (name === "" || name.length > 200)
    return usage(io, "projects create needs --name <name> (1-200 characters)");
  if (options.id !== undefined && !isUuid(options.id)) return usage(io, "--id must be a UUID");
  const shown = options.displayName === undefined ? {} : displayNameOption(options.displayName);
  if (typeof shown === "string") return usage(io, shown);
  const seller = sellerFromOptions(options.seller ?? {}, undefined);
  if (typeof seller === "string") return usage(io, seller);
  const provider = await providerFromOptions(options, null, io.env);
  if (provider.isErr())
    return "usage" in provider.error ? usage(io, provider.error.usage) : failure(io, provider.error.failure);
  const id = options.id?.toLowerCase() ?? createUuidV7Generator().newId();
  const existing = await storage.findProject(id);
  if (existing.isErr()) return storageFailure(io, existing.error);
  // saveProject would update an existing project: "create" must not rename one by accident.
  if (existing.value !== null) return failure(io, `project ${id} already exists`);
  const project: Project = { id, name, ...shown, ...seller, provider: provider.value, createdAt: new Date() };
  const saved = await storage.saveProject(project);
  if (saved.isErr()) return storageFailure(io, saved.error);
  io.stdout(`${id}\n`);
  tellNotificationUrl(io, project);
  return 0;
}

/**
 * `kopek projects update <id>`: a new name or provider settings. Options not given keep their value
 * while the provider kind stays, the secret key included (rotate it with a new --secret-key-file).
 */
export async function projectsUpdate(
  { storage, io }: DatabaseCommandContext,
  projectId: string | undefined,
  options: ProjectsCreateOptions,
): Promise<number> {
  if (projectId === undefined) return usage(io, "projects update needs a project id");
  if (!isUuid(projectId)) return noProject(io, projectId);
  if (options.id !== undefined) return usage(io, "--id is an option of projects create only");
  const name = options.name?.trim();
  if (name !== undefined && (name === "" || name.length > 200))
    return usage(io, "--name must be 1-200 characters");
  const shown =
    options.displayName === undefined || options.displayName.trim() === ""
      ? {}
      : displayNameOption(options.displayName);
  if (typeof shown === "string") return usage(io, shown);
  const found = await storage.findProject(projectId.toLowerCase());
  if (found.isErr()) return storageFailure(io, found.error);
  if (found.value === null) return noProject(io, projectId);
  const provider = await providerFromOptions(options, found.value.provider, io.env);
  if (provider.isErr())
    return "usage" in provider.error ? usage(io, provider.error.usage) : failure(io, provider.error.failure);
  const { displayName: kept, seller: keptSeller, ...rest } = found.value;
  const seller = sellerFromOptions(options.seller ?? {}, keptSeller);
  if (typeof seller === "string") return usage(io, seller);
  // Absent: kept; "": removed (the page shows the name again); otherwise the new one.
  const displayName = options.displayName === undefined && kept !== undefined ? { displayName: kept } : shown;
  const project: Project = {
    ...rest,
    ...displayName,
    ...seller,
    name: name ?? rest.name,
    provider: provider.value,
  };
  const saved = await storage.saveProject(project);
  if (saved.isErr()) return storageFailure(io, saved.error);
  const shownAs = project.displayName === undefined ? "" : ` (payers see "${project.displayName}")`;
  io.stdout(`updated ${project.id}: ${project.name}${shownAs}, ${describeProvider(project.provider)}\n`);
  tellNotificationUrl(io, project);
  return 0;
}

/** `kopek projects list`: one line per project, oldest first, a deleted one marked so; never a secret. */
export async function projectsList({ storage, io }: DatabaseCommandContext): Promise<number> {
  const projects = await storage.listProjects();
  if (projects.isErr()) return storageFailure(io, projects.error);
  if (projects.value.length === 0) io.stdout("No projects yet: kopek projects create --name <name>\n");
  // The display name (what payers see) beside the name, JSON-quoted so that no character of it can
  // break the line; the provider's kind and settings, never its secret.
  for (const p of projects.value) {
    const shown = p.displayName === undefined ? "" : ` ${JSON.stringify(p.displayName)}`;
    const deleted = p.deletedAt === undefined ? "" : `  deleted ${p.deletedAt.toISOString()}`;
    io.stdout(
      `${p.id}  ${p.name}${shown}  ${describeProvider(p.provider)}  created ${p.createdAt.toISOString()}${deleted}\n`,
    );
  }
  return 0;
}

/** API.md 10.4: the operator gives a real provider the URL its notifications go to. */
function tellNotificationUrl(
  io: DatabaseCommandContext["io"],
  project: { id: string; provider: ProviderSettings },
) {
  if (!needsNotificationUrl(project.provider)) return;
  const config = loadConfig(io.env);
  const publicUrl = config.isOk() ? config.value.publicUrl : null;
  const url = providerNotificationUrl(publicUrl ?? "<KOPEK_PUBLIC_URL>", project.id, project.provider.kind);
  io.stderr(`Notification URL, to give the provider (${project.provider.kind}): ${url}\n`);
  if (publicUrl === null)
    io.stderr(
      "KOPEK_PUBLIC_URL is not set here: put in its place the server's public https:// address, the value of KOPEK_PUBLIC_URL on the server.\n",
    );
}

/** A project id that names no project (a malformed one included): exit 1. */
export function noProject(io: DatabaseCommandContext["io"], projectId: string): number {
  return failure(io, `project ${JSON.stringify(projectId)} does not exist (kopek projects list shows them)`);
}

export function usage(io: DatabaseCommandContext["io"], message: string): number {
  io.stderr(`kopek: ${message} (see kopek --help)\n`);
  return 2;
}
