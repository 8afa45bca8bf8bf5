import { createKopek } from "@kopek/core";
import { createSandboxLedger, type SandboxLedger } from "@kopek/provider-sandbox";
import type { FastifyInstance } from "fastify";
import { err, ok, type Result } from "neverthrow";
import { buildApp } from "./app.js";
import type { Config } from "./config.js";
import { demoBanner } from "./demo-project.js";
import { kopekAfterListen } from "./kopek-after-listen.js";
import { createLogger, reportKopekErrors } from "./logger.js";
import { createProviderRegistry } from "./providers.js";
import { cliHint, setUpProjects } from "./startup-projects.js";
import { openStorage } from "./storage.js";

const PURGE_INTERVAL_MS = 60_000;
const PURGE_BATCH = 1000;

export interface RunningServer {
  readonly app: FastifyInstance;
  /** Where it listens, e.g. `http://127.0.0.1:3000`. */
  readonly url: string;
  /** Stops accepting, lets in-flight requests finish, stops timers, closes storage. */
  close(): Promise<void>;
}

/** Starts the server: storage, projects, the app, listening, the purge timer. The only place that listens. */
export async function startServer(
  config: Config,
  print: (text: string) => void,
): Promise<Result<RunningServer, string>> {
  const logger = createLogger({ level: config.logLevel });
  const ledger = openLedger(config);
  if (ledger.isErr()) return err(ledger.error);
  const opened = await openStorage(config, logger);
  if (opened.isErr()) return err(opened.error);
  const { storage } = opened.value;

  const projects = await setUpProjects(config, opened.value);
  if (projects.isErr()) {
    await opened.value.close();
    return err(projects.error);
  }
  const { demoKey, fromFile } = projects.value;
  if (config.projectsFile !== null) logger.info({ projects: fromFile }, "projects file applied");

  const providerFor = createProviderRegistry({
    ledger: ledger.value,
    sandboxLatencyMs: config.sandboxLatencyMs,
  });
  const late = kopekAfterListen((publicUrl) =>
    createKopek({
      storage,
      providerFor,
      publicUrl,
      ...(config.idempotencyLeaseMs === null ? {} : { leaseMs: config.idempotencyLeaseMs }),
      onError: reportKopekErrors(logger),
    }),
  );
  let publicUrl = config.publicUrl;
  const app = await buildApp({
    kopek: late.kopek,
    storage,
    logger,
    rateLimitPerSecond: config.rateLimitPerSecond,
    publicUrl: () => publicUrl ?? "",
  });
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (cause) {
    await app.close();
    await opened.value.close();
    return err(
      `cannot listen on ${config.host}:${config.port} (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`,
    );
  }
  const url = listeningUrl(app, config.host);
  // Unset, the public URL is where the server listens, with the port it was really given (PORT=0).
  publicUrl ??= url;
  late.bind(publicUrl);
  logger.info({ url, storage: opened.value.kind }, "kopek listening");
  if (demoKey !== null) print(demoBanner(url, demoKey));
  else if (opened.value.kind === "postgres" && config.projectsFile === null) print(cliHint());

  const purge = setInterval(async () => {
    const purged = await late.kopek.purgeExpiredIdempotencyKeys(PURGE_BATCH);
    if (purged.isErr()) logger.warn({ code: purged.error.code }, "purging expired idempotency keys failed");
  }, PURGE_INTERVAL_MS);
  purge.unref();

  return ok({
    app,
    url,
    close: async () => {
      clearInterval(purge);
      await app.close();
      await opened.value.close();
    },
  });
}

/** The sandbox's books: in memory, or in KOPEK_SANDBOX_LEDGER_FILE (a testing aid). */
function openLedger(config: Config): Result<SandboxLedger, string> {
  if (config.sandboxLedgerFile === null) return ok(createSandboxLedger());
  try {
    return ok(createSandboxLedger({ file: config.sandboxLedgerFile }));
  } catch (cause) {
    const reason = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message;
    return err(`KOPEK_SANDBOX_LEDGER_FILE ${config.sandboxLedgerFile} cannot be used (${reason})`);
  }
}

// A wildcard address is where the server listens, not where a client can reach it.
function listeningUrl(app: FastifyInstance, host: string): string {
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const reachable =
    host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  return `http://${reachable}:${port}`;
}
