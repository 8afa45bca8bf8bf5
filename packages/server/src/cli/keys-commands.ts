import { createUuidV7Generator, generateApiKey, hashApiKey, isUuid, isWellFormedApiKey } from "@kopek/core";
import { type DatabaseCommandContext, failure, storageFailure } from "./database.js";
import { usage } from "./projects-commands.js";

const SHA256_HEX = /^[0-9a-f]{64}$/;
const PREFIX = 12;

/** `kopek keys create --project <id>`: stores only the key's SHA-256 and prints the key this once. */
export async function keysCreate(
  { storage, io }: DatabaseCommandContext,
  projectId: string | undefined,
): Promise<number> {
  const project = await findProject({ storage, io }, projectId);
  if (typeof project === "number") return project;
  const key = generateApiKey();
  const sha256 = hashApiKey(key);
  const now = new Date();
  const record = {
    id: createUuidV7Generator().newId(),
    projectId: project,
    sha256,
    createdAt: now,
    revokedAt: null,
  };
  const added = await storage.addApiKey(record);
  if (added.isErr()) return storageFailure(io, added.error);
  io.stdout(
    `key:    ${key}\nsha256: ${sha256}\n\n` +
      "This is the only time the key is shown: it cannot be shown again (only its SHA-256 is stored). " +
      "Give it to the client now; a lost key is replaced with a new one.\n",
  );
  return 0;
}

/**
 * `kopek keys revoke -`: the key (or its SHA-256) is read from standard input, the first line, so a
 * plaintext key need not sit on the command line, where shell history and `ps` keep it.
 */
async function revokeTargetOf(io: DatabaseCommandContext["io"], argument: string | undefined) {
  if (argument !== "-") {
    if (argument !== undefined && isWellFormedApiKey(argument))
      io.stderr(
        "warning: a key on the command line stays in shell history and is visible to other users; " +
          "pass its sha256, or the key on standard input: kopek keys revoke - < key.txt\n",
      );
    return argument;
  }
  const text = (await io.readStdin?.()) ?? "";
  return text
    .split(/\r?\n/)
    .find((line) => line.trim() !== "")
    ?.trim();
}

/** `kopek keys revoke <sha256-or-key | ->`: effective at once, since every request looks its key up. */
export async function keysRevoke(
  { storage, io }: DatabaseCommandContext,
  argument: string | undefined,
): Promise<number> {
  const target = await revokeTargetOf(io, argument);
  const sha256 =
    target !== undefined && isWellFormedApiKey(target) ? hashApiKey(target) : (target?.toLowerCase() ?? "");
  if (!SHA256_HEX.test(sha256))
    return usage(io, "keys revoke needs a key's SHA-256 (64 hex characters) or the key");
  const revoked = await storage.revokeApiKey(sha256, new Date());
  if (revoked.isErr()) return storageFailure(io, revoked.error);
  if (!revoked.value) return failure(io, `no API key with sha256 ${sha256.slice(0, PREFIX)}…`);
  io.stdout(`revoked ${sha256.slice(0, PREFIX)}…\n`);
  return 0;
}

/** `kopek keys list --project <id>`: never keys, only ids and hash prefixes. */
export async function keysList(
  { storage, io }: DatabaseCommandContext,
  projectId: string | undefined,
): Promise<number> {
  const project = await findProject({ storage, io }, projectId);
  if (typeof project === "number") return project;
  const keys = await storage.listApiKeys(project);
  if (keys.isErr()) return storageFailure(io, keys.error);
  if (keys.value.length === 0) io.stdout(`No keys yet: kopek keys create --project ${project}\n`);
  for (const k of keys.value) {
    const state = k.revokedAt === null ? "active" : `revoked ${k.revokedAt.toISOString()}`;
    io.stdout(
      `${k.id}  sha256 ${k.sha256.slice(0, PREFIX)}…  created ${k.createdAt.toISOString()}  ${state}\n`,
    );
  }
  return 0;
}

/** The project's id when it exists, else the exit code after saying why. */
async function findProject(
  { storage, io }: Pick<DatabaseCommandContext, "storage" | "io">,
  projectId: string | undefined,
): Promise<string | number> {
  if (projectId === undefined || !isUuid(projectId))
    return usage(io, "--project <id> (a project's UUID) is required");
  const found = await storage.findProject(projectId.toLowerCase());
  if (found.isErr()) return storageFailure(io, found.error);
  if (found.value === null) return failure(io, `no project ${projectId}`);
  return found.value.id;
}
