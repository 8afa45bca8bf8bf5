import {
  type ApiKeyRecord,
  createUuidV7Generator,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  keyIsLive,
} from "@kopek/core";
import { parseDuration } from "../startup/duration.js";
import { type DatabaseCommandContext, failure, storageFailure } from "./database.js";
import { findKey, SHOWN_PREFIX } from "./key-target.js";
import { projectArg } from "./project-arg.js";
import { usage } from "./projects-commands.js";

const ONCE =
  "This is the only time the key is shown: it cannot be shown again (only its SHA-256 is stored). " +
  "Give it to the client now; a lost key is replaced with a new one.\n";
/** The longest `keys rotate --grace`: 30 days, enough for any client's deploy, short enough to be noticed. */
const MAX_GRACE_MS = 30 * 86_400_000;

const shortHash = (sha256: string) => `${sha256.slice(0, SHOWN_PREFIX)}…`;

/** A new key for the project, stored as its SHA-256 and printed this once; an exit code on failure. */
async function issueKey({ storage, io }: DatabaseCommandContext, projectId: string): Promise<number> {
  const key = generateApiKey();
  const sha256 = hashApiKey(key);
  const id = createUuidV7Generator().newId();
  const added = await storage.addApiKey({ id, projectId, sha256, createdAt: new Date(), revokedAt: null });
  if (added.isErr()) return storageFailure(io, added.error);
  if (!added.value)
    return failure(io, `project ${projectId} is deleted (kopek projects delete): it takes no new key`);
  io.stdout(`key:    ${key}\nsha256: ${sha256}\nid:     ${id}\n\n${ONCE}`);
  return 0;
}

/** `kopek keys create --project <id>`: stores only the key's SHA-256 and prints the key this once. */
export async function keysCreate(context: DatabaseCommandContext, projectId: string | undefined) {
  const project = await projectArg(context, "keys create", projectId);
  return typeof project === "number" ? project : issueKey(context, project);
}

async function revoke({ storage, io }: DatabaseCommandContext, key: ApiKeyRecord): Promise<number> {
  const now = new Date();
  if (!keyIsLive(key, now) && key.revokedAt !== null) {
    io.stdout(`already revoked ${shortHash(key.sha256)} (key ${key.id}) at ${key.revokedAt.toISOString()}\n`);
    return 0;
  }
  // A key in its rotation's grace period is revoked now too: the earlier time wins.
  const revoked = await storage.revokeApiKey(key.sha256, now);
  if (revoked.isErr()) return storageFailure(io, revoked.error);
  io.stdout(`revoked ${shortHash(key.sha256)} (key ${key.id})\n`);
  return 0;
}

/**
 * `kopek keys revoke <id | sha256 prefix | key>`: effective at once, since every request looks its
 * key up.
 */
/**
 * `kopek keys revoke -`: the key (or its id or SHA-256) is read from standard input, the first line, so
 * a plaintext key need not sit on the command line, where shell history and `ps` keep it.
 */
async function revokeTargetOf(io: DatabaseCommandContext["io"], argument: string | undefined) {
  if (argument !== "-") {
    if (argument !== undefined && isWellFormedApiKey(argument))
      io.stderr(
        "warning: a key on the command line stays in shell history and is visible to other users; " +
          "pass its id or sha256 (as keys list prints them), or the key on standard input: kopek keys revoke - < key.txt\n",
      );
    return argument;
  }
  const text = (await io.readStdin?.()) ?? "";
  return text
    .split(/\r?\n/)
    .find((line) => line.trim() !== "")
    ?.trim();
}

export async function keysRevoke(context: DatabaseCommandContext, argument: string | undefined) {
  const target = await revokeTargetOf(context.io, argument);
  const key = await findKey(context, "keys revoke", target);
  return typeof key === "number" ? key : revoke(context, key);
}

/**
 * `kopek keys rotate <id | sha256 prefix | key> [--grace <duration>]`: a new key for the same project,
 * printed once; the old one revoked at once, or from the end of the grace period on — a time stored
 * with the key, so every server refuses it from then and the command returns at once.
 */
export async function keysRotate(
  context: DatabaseCommandContext,
  target: string | undefined,
  grace: string | undefined,
): Promise<number> {
  const { io, storage } = context;
  const graceMs = grace === undefined ? 0 : parseDuration(grace);
  if (graceMs === null || graceMs > MAX_GRACE_MS)
    return usage(io, "--grace is a duration such as 90s, 15m, 2h or 7d, at most 30d");
  const old = await findKey(context, "keys rotate", target);
  if (typeof old === "number") return old;
  const now = new Date();
  if (!keyIsLive(old, now))
    return usage(
      io,
      `key ${old.id} is already revoked: keys create --project ${old.projectId} issues a new one`,
    );
  const issued = await issueKey(context, old.projectId);
  if (issued !== 0) return issued;
  if (graceMs === 0) return revoke(context, old);
  const asked = new Date(now.getTime() + graceMs);
  // A key already in a grace period keeps the earlier end (storage never postpones a revocation).
  const until = old.revokedAt !== null && old.revokedAt < asked ? old.revokedAt : asked;
  const scheduled = await storage.revokeApiKey(old.sha256, until);
  if (scheduled.isErr()) return storageFailure(io, scheduled.error);
  io.stdout(
    `The old key ${shortHash(old.sha256)} (key ${old.id}) stays valid until ${until.toISOString()}, then every ` +
      `server refuses it. To end it sooner: kopek keys revoke ${old.id}\n`,
  );
  return 0;
}

/** `kopek keys list --project <id>`: never keys, only ids and hash prefixes. */
export async function keysList(context: DatabaseCommandContext, projectId: string | undefined) {
  const { storage, io } = context;
  const project = await projectArg(context, "keys list", projectId);
  if (typeof project === "number") return project;
  const keys = await storage.listApiKeys(project);
  if (keys.isErr()) return storageFailure(io, keys.error);
  if (keys.value.length === 0) io.stdout(`No keys yet: kopek keys create --project ${project}\n`);
  for (const k of keys.value) {
    const state =
      k.revokedAt === null
        ? "active"
        : keyIsLive(k, new Date())
          ? `active until ${k.revokedAt.toISOString()}`
          : `revoked ${k.revokedAt.toISOString()}`;
    io.stdout(`${k.id}  sha256 ${shortHash(k.sha256)}  created ${k.createdAt.toISOString()}  ${state}\n`);
  }
  return 0;
}
