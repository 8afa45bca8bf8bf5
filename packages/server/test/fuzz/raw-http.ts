import { connect } from "node:net";

export interface RawRequest {
  readonly method: string;
  /** Sent as it is, spaces and all: a broken request line is one of the things tried. */
  readonly path: string;
  /** In order, duplicates allowed; values are written as UTF-8. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body?: string;
}

export interface RawResponse {
  readonly status: number;
  /** Lower-case names; a repeated header keeps its last value. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * One request on its own connection, written byte by byte as given (fetch would refuse half of what
 * the fuzzer sends): `Content-Length` from the body, `Connection: close`, and the answer read until
 * the server closes. Null when the connection ended without any answer.
 */
export function rawRequest(
  port: number,
  request: RawRequest,
  timeoutMs = 15_000,
): Promise<RawResponse | null> {
  return new Promise((resolve, reject) => {
    const body = request.body === undefined ? null : Buffer.from(request.body, "utf8");
    const lines = [`${request.method} ${request.path} HTTP/1.1`, "Host: 127.0.0.1"];
    for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
    if (body !== null) lines.push(`Content-Length: ${body.length}`);
    lines.push("Connection: close", "", "");
    const head = Buffer.from(lines.join("\r\n"), "utf8");
    const chunks: Buffer[] = [];
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(body === null ? head : Buffer.concat([head, body]));
    });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms to ${request.method} ${request.path}`));
    }, timeoutMs);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    // A reset after the answer (the server refused the rest of a big body) still counts as answered.
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(parseResponse(Buffer.concat(chunks)));
    });
  });
}

function parseResponse(raw: Buffer): RawResponse | null {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const [statusLine = "", ...headerLines] = raw.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(statusLine.split(" ")[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(end + 4);
  if (headers["transfer-encoding"] === "chunked") body = unchunk(body);
  return { status, headers, body: body.toString("utf8") };
}

function unchunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < data.length) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
    if (!(size > 0)) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
