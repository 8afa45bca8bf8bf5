import { type CliProcess, spawnCli } from "./cli-process.js";
import { recordBodyRefs } from "./test-artifacts.js";

export interface ServerProcess {
  readonly cli: CliProcess;
  /** Where it listens, read from its "kopek listening" log line (it is started with PORT=0). */
  readonly url: string;
  /** SIGTERM, and the exit code once it drained. */
  stop(): Promise<number | null>;
  /** SIGKILL: a crash, with no chance to finish or release anything. */
  kill(): Promise<void>;
}

/**
 * `kopek serve` from source in its own process, on a free port the kernel picks. `asShipped`: the
 * built CLI in `cwd` with `env` alone (cli-process.ts), every other setting at its default, the rate
 * limits included.
 */
export async function startServerProcess(
  env: Record<string, string>,
  asShipped?: { readonly cwd: string },
): Promise<ServerProcess> {
  const cli =
    asShipped === undefined
      ? spawnCli(["serve"], {
          PORT: "0",
          KOPEK_RATE_LIMIT: "0",
          KOPEK_RATE_LIMIT_UNAUTHENTICATED: "0",
          KOPEK_RATE_LIMIT_PUBLIC: "0",
          ...env,
        })
      : spawnCli(["serve"], { PORT: "0", ...env }, asShipped);
  const exitedEarly = cli.exited.then((code) => {
    throw new Error(`kopek serve exited with ${code} before listening: ${cli.stderr()}${cli.stdout()}`);
  });
  // A hang guard: from source (tsx) on a busy 2-core machine, a start has taken over 30 s.
  const [, url = ""] = await Promise.race([cli.waitFor(/"url":"([^"]+)","storage"/, 60_000), exitedEarly]);
  exitedEarly.catch(() => {}); // a later exit is the test's business
  return {
    cli,
    url,
    async stop() {
      cli.child.kill("SIGTERM");
      return cli.exited;
    },
    async kill() {
      cli.child.kill("SIGKILL");
      await cli.exited;
    },
  };
}

export interface PostedResponse {
  readonly status: number;
  readonly body: string;
  readonly headers: Headers;
}

/** POSTs JSON to a running server; returns status, the exact body and the headers. */
export async function postJson(
  url: string,
  apiKey: string,
  idempotencyKey: string,
  body: unknown,
): Promise<PostedResponse> {
  recordBodyRefs(body);
  const response = await fetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${apiKey}`,
      "content-type": "application/json",
      "idempotency-key": idempotencyKey,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.text(), headers: response.headers };
}

/** A running server as the payer's browser sees its pages (`payAtSandbox`): no redirect followed. */
export function processPages(baseUrl: string) {
  return {
    async inject(request: {
      method: "GET" | "POST";
      url: string;
      headers?: Record<string, string>;
      payload?: string;
    }) {
      const response = await fetch(`${baseUrl}${request.url}`, {
        method: request.method,
        headers: request.headers ?? {},
        body: request.payload ?? null,
        redirect: "manual",
      });
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return {
        statusCode: response.status,
        headers,
        body: await response.text(),
      };
    },
  };
}
