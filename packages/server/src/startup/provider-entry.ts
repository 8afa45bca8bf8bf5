import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { PAYMENT_METHODS, type ProviderSettings } from "@kopek/core";
import { err, ok, type Result } from "neverthrow";
import { z } from "zod";

/**
 * A project's provider as the operator writes it, in the projects file or through `kopek projects`
 * (API.md 10.8): everything but a secret, which is named by where it is kept (`secretKeyFile`,
 * `secretKeyEnv`) and read by `resolveProvider`.
 */

export const httpUrl = z
  .string("must be a string")
  .refine(
    (value) => /^https?:$/.test(URL.parse(value)?.protocol ?? ""),
    "must be an http:// or https:// URL",
  );

/**
 * The HTTP provider protocol is Kopek's own and unauthenticated: a development and testing harness
 * (`kopek sandbox-provider`), never a way to move real money. Its service must run on this machine.
 */
const loopbackUrl = httpUrl.refine((value) => {
  const host = URL.parse(value)?.hostname ?? "";
  return host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}, "must be on this machine (localhost, 127.0.0.1 or [::1]): the http provider is an unauthenticated test harness");

const METHODS_RULE = `must be a list of ${PAYMENT_METHODS.join(", ")}, each at most once`;

export const storedMethodsSchema = z
  .array(z.enum(PAYMENT_METHODS, METHODS_RULE), METHODS_RULE)
  .refine((methods) => new Set(methods).size === methods.length, METHODS_RULE);

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const providerEntrySchema = z.discriminatedUnion(
  "kind",
  [
    z.strictObject({
      kind: z.literal("sandbox"),
      storedMethodCharge: z.boolean("must be true or false").default(true),
    }),
    z.strictObject({
      kind: z.literal("http"),
      url: loopbackUrl,
      storedMethodCharge: z.boolean("must be true or false").default(true),
      timeoutMs: z
        .number("must be a number of milliseconds")
        .int("must be a whole number of milliseconds")
        .min(1, "must be from 1 to 60000 (milliseconds)")
        .max(60_000, "must be from 1 to 60000 (milliseconds)")
        .nullable()
        .default(null),
    }),
    z
      .strictObject({
        kind: z.literal("yookassa"),
        shopId: z
          .string("must be a string")
          .regex(/^\d{1,20}$/, "must be the shop's id (digits, shopId in YooKassa)"),
        secretKeyFile: z.string("must be a file path").min(1, "must be a file path").optional(),
        secretKeyEnv: z
          .string("must be the name of an environment variable")
          .regex(ENV_NAME, "must be the name of an environment variable")
          .optional(),
        // Named so the refusal says why, instead of "not a known field".
        secretKey: z
          .never({
            error: "must not be written here: name where it is kept with secretKeyFile or secretKeyEnv",
          })
          .optional(),
        storedMethods: storedMethodsSchema.default(["card"]),
        apiUrl: httpUrl.nullable().default(null),
      })
      .refine((entry) => entry.secretKeyFile === undefined || entry.secretKeyEnv === undefined, {
        path: ["secretKeyEnv"],
        message: "cannot be given with secretKeyFile: name one place where the secret key is kept",
      }),
  ],
  { error: 'must be "sandbox", "http" or "yookassa"' },
);

export type ProviderEntry = z.infer<typeof providerEntrySchema>;

export interface SecretSources {
  /** What relative `secretKeyFile` paths are resolved against (the projects file's directory). */
  readonly baseDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** How the operator names a field in messages: `projects[0].provider.secretKeyFile`, `--secret-key-file`. */
  readonly fieldName: (field: "secretKeyFile" | "secretKeyEnv" | "provider") => string;
  /** The secret already stored, kept when no new source is named (`kopek projects update`). */
  readonly currentSecretKey?: string | undefined;
}

/** The settings Kopek stores: the entry with its secret read. Messages never hold the secret. */
export async function resolveProvider(
  entry: ProviderEntry,
  sources: SecretSources,
): Promise<Result<ProviderSettings, string>> {
  if (entry.kind !== "yookassa") return ok(entry);
  const secretKey = await readSecret(entry, sources);
  return secretKey.map((key) => ({
    kind: "yookassa",
    shopId: entry.shopId,
    secretKey: key,
    storedMethods: entry.storedMethods,
    apiUrl: entry.apiUrl,
  }));
}

async function readSecret(
  entry: { secretKeyFile?: string | undefined; secretKeyEnv?: string | undefined },
  { baseDir, env, fieldName, currentSecretKey }: SecretSources,
): Promise<Result<string, string>> {
  if (entry.secretKeyFile !== undefined) {
    const name = `${fieldName("secretKeyFile")} ${entry.secretKeyFile}`;
    let text: string;
    try {
      text = await readFile(resolve(baseDir, entry.secretKeyFile), "utf8");
    } catch (cause) {
      return err(`${name} cannot be read (${(cause as NodeJS.ErrnoException).code ?? "error"})`);
    }
    return checkSecret(text, name, "the file");
  }
  if (entry.secretKeyEnv !== undefined) {
    const name = `${fieldName("secretKeyEnv")} ${entry.secretKeyEnv}`;
    const value = env[entry.secretKeyEnv];
    if (value === undefined || value.trim() === "")
      return err(`${name}: that environment variable is not set`);
    return checkSecret(value, name, "the variable");
  }
  if (currentSecretKey !== undefined) return ok(currentSecretKey);
  return err(
    `${fieldName("provider")} needs its secret key: ${fieldName("secretKeyFile")} or ${fieldName("secretKeyEnv")} names where it is kept`,
  );
}

function checkSecret(text: string, name: string, holder: string): Result<string, string> {
  const secret = text.trim();
  if (secret === "") return err(`${name} is empty: it must hold the secret key`);
  if (/\s/.test(secret)) return err(`${name}: ${holder} must hold only the secret key, on one line`);
  return ok(secret);
}
