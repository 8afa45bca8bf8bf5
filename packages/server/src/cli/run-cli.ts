import type { SandboxProviderOptions } from "../startup/sandbox-provider-command.js";
import { commandWordsOf, parseArguments } from "./cli-arguments.js";
import { commandHelp, kopekVersion } from "./command-help.js";
import type { CliIo, DatabaseCommandContext } from "./database.js";
import { USAGE } from "./usage.js";

// A command's module, and the database's, is imported when that command runs: `kopek --help` loads
// neither pg nor zod, and only `refunds create` loads the providers (docs/performance.md).
const keys = () => import("./keys-commands.js");
const projects = () => import("./projects-commands.js");
const webhooks = () => import("./webhooks-commands.js");

async function withDatabase(
  io: CliIo,
  command: (context: DatabaseCommandContext) => Promise<number>,
  options?: { readonly needsKey?: boolean },
): Promise<number> {
  const database = await import("./database.js");
  return database.withDatabase(io, command, options);
}

/** `kopek sandbox-provider`: long-running, started by cli.ts. */
export interface SandboxProviderCommand {
  readonly command: "sandbox-provider";
  readonly options: SandboxProviderOptions;
}

export type { CliIo };

/**
 * The kopek command line, except `serve` and `worker` (which keep running): returns the exit code, or
 * the name of the long-running command. Usage errors exit 2, failures 1.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
): Promise<number | "serve" | "worker" | SandboxProviderCommand> {
  // Not an option on purpose: a secret typed on the command line stays in the shell's history and in ps.
  if (argv.some((arg) => arg === "--secret-key" || arg.startsWith("--secret-key=")))
    return usageError(
      io,
      "--secret-key is refused: name where the key is kept with --secret-key-file or --secret-key-env",
    );
  const parsed = parseArguments(argv);
  if (typeof parsed === "string") return usageError(io, parsed, commandWordsOf(argv));
  const [command = "serve", ...rest] = parsed.words;
  if (parsed.values.version === true) {
    io.stdout(`kopek ${kopekVersion()}\n`);
    return 0;
  }
  if (parsed.values.help === true || command === "help") {
    const words = command === "help" ? rest : parsed.words;
    const help = words.length === 0 ? USAGE : commandHelp(words);
    if (help === null) return usageError(io, `no command "${words.join(" ")}"`);
    io.stdout(help);
    return 0;
  }
  const { values } = parsed;
  const line = [command, ...rest].join(" ");
  const providerOption = (["port", "host", "ledger", "latency-ms"] as const).find(
    (o) => values[o] !== undefined,
  );
  if (providerOption !== undefined && line !== "sandbox-provider")
    return usageError(io, `--${providerOption} is an option of sandbox-provider only`, parsed.words);
  if (line === "serve" || line === "worker") return line;
  if (line === "sandbox-provider") {
    return {
      command: "sandbox-provider",
      options: {
        port: values.port,
        host: values.host,
        ledger: values.ledger,
        latencyMs: values["latency-ms"],
        storedMethodCharge: values["stored-method-charge"],
      },
    };
  }
  if (line === "keys generate") return generateKey(io);
  if (values.citus !== undefined && line !== "migrate")
    return usageError(io, "--citus is an option of migrate only", parsed.words);
  if (line === "migrate")
    return withDatabase(
      io,
      async (c) => (await import("./migrate-command.js")).migrateCommand(c, { citus: values.citus === true }),
      { needsKey: false },
    );
  const projectOptions = {
    name: values.name,
    displayName: values["display-name"],
    id: values.id,
    provider: values.provider,
    url: values.url,
    storedMethodCharge: values["stored-method-charge"],
    shopId: values["shop-id"],
    secretKeyFile: values["secret-key-file"],
    secretKeyEnv: values["secret-key-env"],
    terminalKey: values["terminal-key"],
    passwordFile: values["password-file"],
    passwordEnv: values["password-env"],
    storedMethods: values["stored-methods"],
    saveWithoutPayment: values["save-without-payment"],
    apiUrl: values["api-url"],
    seller: {
      legalName: values["seller-legal-name"],
      inn: values["seller-inn"],
      email: values["seller-email"],
      phone: values["seller-phone"],
      offerUrl: values["seller-offer-url"],
      privacyUrl: values["seller-privacy-url"],
    },
  };
  if (values.force !== undefined && !(command === "projects" && rest[0] === "delete"))
    return usageError(io, "--force is an option of projects delete only", parsed.words);
  if (line === "projects create")
    return withDatabase(io, async (context) => (await projects()).projectsCreate(context, projectOptions));
  if (command === "projects" && rest[0] === "update" && rest.length <= 2)
    return withDatabase(io, async (context) =>
      (await projects()).projectsUpdate(context, rest[1], projectOptions),
    );
  if (line === "projects list")
    return withDatabase(io, async (context) => (await projects()).projectsList(context));
  if (command === "projects" && rest[0] === "delete" && rest.length <= 2)
    return withDatabase(io, async (context) =>
      (await import("./projects-delete-command.js")).projectsDelete(context, rest[1], {
        force: values.force === true,
      }),
    );
  if (command === "webhooks" || command === "events") {
    const run = (await webhooks()).webhookCommand(parsed.words);
    if (run !== null) return withDatabase(io, (context) => run(context, parsed.words, values));
  }
  if (line === "refunds create")
    return withDatabase(io, async (context) =>
      (await import("./refunds-commands.js")).refundsCreate(context, {
        project: values.project,
        payment: values.payment,
        amount: values.amount,
        reason: values.reason,
      }),
    );
  if (
    (values["at-period-end"] !== undefined || values.undo !== undefined) &&
    !(command === "subscriptions" && rest[0] === "cancel")
  )
    return usageError(
      io,
      "--at-period-end and --undo are options of subscriptions cancel only",
      parsed.words,
    );
  if (command === "subscriptions" && rest[0] === "cancel" && rest.length <= 2)
    return withDatabase(io, async (context) =>
      (await import("./subscriptions-commands.js")).subscriptionsCancel(context, rest[1], {
        project: values.project,
        atPeriodEnd: values["at-period-end"],
        undo: values.undo,
      }),
    );
  for (const name of [
    "subscriptions pause",
    "subscriptions resume",
    "subscriptions method-update",
    "customers erase",
  ] as const)
    if (`${command} ${rest[0]}` === name && rest.length <= 2)
      return withDatabase(io, async (context) =>
        (await import("./operator-commands.js")).operatorCommand(context, name, rest[1], values.project),
      );
  if (line === "keys create")
    return withDatabase(io, async (context) => (await keys()).keysCreate(context, values.project), {
      needsKey: false,
    });
  if (line === "keys list")
    return withDatabase(io, async (context) => (await keys()).keysList(context, values.project), {
      needsKey: false,
    });
  if (values.grace !== undefined && !(command === "keys" && rest[0] === "rotate"))
    return usageError(io, "--grace is an option of keys rotate only", parsed.words);
  if (command === "keys" && rest[0] === "revoke" && rest.length <= 2) {
    return withDatabase(io, async (context) => (await keys()).keysRevoke(context, rest[1]), {
      needsKey: false,
    });
  }
  if (command === "keys" && rest[0] === "rotate" && rest.length <= 2) {
    return withDatabase(io, async (context) => (await keys()).keysRotate(context, rest[1], values.grace), {
      needsKey: false,
    });
  }
  return usageError(io, `unknown command "${line}"`);
}

async function generateKey(io: CliIo): Promise<number> {
  const { generateApiKey, hashApiKey } = await import("@kopek/core");
  const key = generateApiKey();
  io.stdout(
    `key:    ${key}\nsha256: ${hashApiKey(key)}\n\n` +
      "Give the key to the client; put only the sha256 in the projects file's apiKeys. The key is not shown again.\n",
  );
  return 0;
}

/**
 * A usage problem: one line saying what, then the usage of the command it was given to (`words`, as
 * typed: `kopek keys create --bogus` shows `keys create`'s), or all of it when that names no command.
 */
function usageError(io: CliIo, message: string, words: readonly string[] = []): number {
  const own = words.length === 0 ? null : commandHelp(words);
  io.stderr(`kopek: ${message}\n\n${own ?? USAGE}`);
  return 2;
}
