import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { PAYMENT_METHODS, type ProviderSettings } from "@kopek/core";
import { err, ok, type Result } from "neverthrow";
import { z } from "zod";
import { isPrivateFile, openFileProblem } from "./private-file.js";

/**
 * A project's provider as the operator writes it, in the projects file or through `kopek projects`
 * (API.md 10.8): everything but a secret, which is named by where it is kept (`secretKeyFile`,
 * `secretKeyEnv` for YooKassa, `passwordFile`, `passwordEnv` for T-Bank) and read by `resolveProvider`.
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

/** Whether a payer's new card is saved with no payment (API.md 11.5); off unless set (provider READMEs). */
const saveWithoutPaymentSchema = z.boolean("must be true or false").optional();

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
        saveWithoutPayment: saveWithoutPaymentSchema,
        apiUrl: httpUrl.nullable().default(null),
      })
      .refine((entry) => entry.secretKeyFile === undefined || entry.secretKeyEnv === undefined, {
        path: ["secretKeyEnv"],
        message: "cannot be given with secretKeyFile: name one place where the secret key is kept",
      }),
    z
      .strictObject({
        kind: z.literal("tbank"),
        // developer.tbank.ru/eacq/api/init: TerminalKey holds at most 20 characters.
        terminalKey: z
          .string("must be a string")
          .regex(
            /^[A-Za-z0-9_-]{1,20}$/,
            "must be the terminal's TerminalKey (at most 20 letters, digits, _ or -)",
          ),
        passwordFile: z.string("must be a file path").min(1, "must be a file path").optional(),
        passwordEnv: z
          .string("must be the name of an environment variable")
          .regex(ENV_NAME, "must be the name of an environment variable")
          .optional(),
        password: z
          .never({
            error: "must not be written here: name where it is kept with passwordFile or passwordEnv",
          })
          .optional(),
        storedMethods: storedMethodsSchema.default(["card"]),
        saveWithoutPayment: saveWithoutPaymentSchema,
        apiUrl: httpUrl.nullable().default(null),
      })
      .refine((entry) => entry.passwordFile === undefined || entry.passwordEnv === undefined, {
        path: ["passwordEnv"],
        message: "cannot be given with passwordFile: name one place where the password is kept",
      }),
  ],
  { error: 'must be "sandbox", "http", "yookassa" or "tbank"' },
);

export type ProviderEntry = z.infer<typeof providerEntrySchema>;

export interface SecretSources {
  /** What relative `secretKeyFile` paths are resolved against (the projects file's directory). */
  readonly baseDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** How the operator names a field in messages: `projects[0].provider.secretKeyFile`, `--secret-key-file`. */
  readonly fieldName: (field: SecretField | "provider") => string;
  /** The secret already stored (secret key or password), kept when no new source is named (`kopek projects update`). */
  readonly currentSecretKey?: string | undefined;
}

type SecretField = "secretKeyFile" | "secretKeyEnv" | "passwordFile" | "passwordEnv";

/** The settings Kopek stores: the entry with its secret read. Messages never hold the secret. */
export async function resolveProvider(
  entry: ProviderEntry,
  sources: SecretSources,
): Promise<Result<ProviderSettings, string>> {
  if (entry.kind === "tbank") {
    const where = { file: entry.passwordFile, env: entry.passwordEnv };
    const password = await readSecret(where, PASSWORD_FIELDS, sources);
    return password.map((value) => ({
      kind: "tbank",
      terminalKey: entry.terminalKey,
      password: value,
      storedMethods: entry.storedMethods,
      ...(entry.saveWithoutPayment === true ? { saveWithoutPayment: true } : {}),
      apiUrl: entry.apiUrl,
    }));
  }
  if (entry.kind !== "yookassa") return ok(entry);
  const where = { file: entry.secretKeyFile, env: entry.secretKeyEnv };
  const secretKey = await readSecret(where, SECRET_KEY_FIELDS, sources);
  return secretKey.map((key) => ({
    kind: "yookassa",
    shopId: entry.shopId,
    secretKey: key,
    storedMethods: entry.storedMethods,
    ...(entry.saveWithoutPayment === true ? { saveWithoutPayment: true } : {}),
    apiUrl: entry.apiUrl,
  }));
}

/** Which fields name where a provider's secret is kept, and what the secret is called in messages. */
interface SecretFields {
  readonly file: SecretField;
  readonly env: SecretField;
  readonly what: string;
}
const SECRET_KEY_FIELDS: SecretFields = { file: "secretKeyFile", env: "secretKeyEnv", what: "secret key" };
const PASSWORD_FIELDS: SecretFields = { file: "passwordFile", env: "passwordEnv", what: "terminal password" };

async function readSecret(
  where: { file?: string | undefined; env?: string | undefined },
  fields: SecretFields,
  { baseDir, env, fieldName, currentSecretKey }: SecretSources,
): Promise<Result<string, string>> {
  if (where.file !== undefined) {
    const name = `${fieldName(fields.file)} ${where.file}`;
    const path = resolve(baseDir, where.file);
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (cause) {
      return err(`${name} cannot be read (${(cause as NodeJS.ErrnoException).code ?? "error"})`);
    }
    if (!(await isPrivateFile(path))) return err(`${name} ${openFileProblem(path, fieldName(fields.env))}`);
    return checkSecret(text, name, "the file", fields.what);
  }
  if (where.env !== undefined) {
    const name = `${fieldName(fields.env)} ${where.env}`;
    const value = env[where.env];
    if (value === undefined || value.trim() === "")
      return err(`${name}: that environment variable is not set`);
    return checkSecret(value, name, "the variable", fields.what);
  }
  if (currentSecretKey !== undefined) return ok(currentSecretKey);
  return err(
    `${fieldName("provider")} needs its ${fields.what}: ${fieldName(fields.file)} or ${fieldName(fields.env)} names where it is kept`,
  );
}

function checkSecret(text: string, name: string, holder: string, what: string): Result<string, string> {
  const secret = text.trim();
  if (secret === "") return err(`${name} is empty: it must hold the ${what}`);
  if (/\s/.test(secret)) return err(`${name}: ${holder} must hold only the ${what}, on one line`);
  return ok(secret);
}
