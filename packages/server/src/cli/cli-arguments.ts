import { parseArgs } from "node:util";

/** Every option of every command; each command refuses those it does not take. */
const OPTIONS = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
  citus: { type: "boolean" },
  "at-period-end": { type: "boolean" },
  undo: { type: "boolean" },
  force: { type: "boolean" },
  grace: { type: "string" },
  name: { type: "string" },
  "display-name": { type: "string" },
  id: { type: "string" },
  "stored-method-charge": { type: "string" },
  provider: { type: "string" },
  "shop-id": { type: "string" },
  "secret-key-file": { type: "string" },
  "secret-key-env": { type: "string" },
  "terminal-key": { type: "string" },
  "password-file": { type: "string" },
  "password-env": { type: "string" },
  "stored-methods": { type: "string" },
  "save-without-payment": { type: "string" },
  "seller-legal-name": { type: "string" },
  "seller-inn": { type: "string" },
  "seller-email": { type: "string" },
  "seller-phone": { type: "string" },
  "seller-offer-url": { type: "string" },
  "seller-privacy-url": { type: "string" },
  "api-url": { type: "string" },
  project: { type: "string" },
  url: { type: "string" },
  events: { type: "string" },
  description: { type: "string" },
  enabled: { type: "string" },
  endpoint: { type: "string" },
  status: { type: "string" },
  type: { type: "string" },
  limit: { type: "string" },
  payment: { type: "string" },
  amount: { type: "string" },
  reason: { type: "string" },
  port: { type: "string" },
  host: { type: "string" },
  ledger: { type: "string" },
  "latency-ms": { type: "string" },
} as const;

const parseWith = (args: string[]) => parseArgs({ args, options: OPTIONS, allowPositionals: true });

/** A command line taken apart: its words (`projects update <id>`) and the options given. */
export interface ParsedArguments {
  readonly words: string[];
  readonly values: ReturnType<typeof parseWith>["values"];
}

/** The command line taken apart, or why it cannot be (an unknown option, a value missing) in one line. */
export function parseArguments(argv: readonly string[]): ParsedArguments | string {
  try {
    const { values, positionals } = parseWith([...argv]);
    return { words: positionals, values };
  } catch (cause) {
    // An unknown option, e.g. --bogus, in one line (Node's own message explains `--` too); any other refusal as Node says it.
    const unknown = /^Unknown option '([^']+)'/.exec((cause as Error).message);
    return unknown === null ? (cause as Error).message : `unknown option ${unknown[1]}`;
  }
}

/** The command words of an argument list parseArgs refused: the words before the first option. */
export function commandWordsOf(argv: readonly string[]): string[] {
  const firstOption = argv.findIndex((arg) => arg.startsWith("-"));
  return (firstOption === -1 ? [...argv] : argv.slice(0, firstOption)).slice(0, 2);
}
