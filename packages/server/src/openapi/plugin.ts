import { createReadStream } from "node:fs";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import {
  DOCS_CSP,
  DOCS_HTML,
  DOCS_INIT_PATH,
  DOCS_INIT_SCRIPT,
  DOCS_PATH,
  docsAssets,
  OPENAPI_PATH,
} from "./docs-page.js";
import { buildOpenApiDocument } from "./document.js";

export interface OpenApiPluginOptions {
  /**
   * Where clients reach the server; becomes the document's `servers` entry. A function when it is known
   * only once the server listens (PORT=0): it is asked on the first request for the document.
   */
  readonly publicUrl: string | (() => string);
}

const ASSET_CACHE = "public, max-age=3600";

/** Serves `GET /openapi.json` (built once, sent as a pre-serialised string) and the `/docs` page. */
async function openApi(app: FastifyInstance, { publicUrl }: OpenApiPluginOptions) {
  let document: string | null = null;
  const build = () =>
    JSON.stringify(
      buildOpenApiDocument({ publicUrl: typeof publicUrl === "string" ? publicUrl : publicUrl() }),
    );

  app.get(OPENAPI_PATH, async (_request, reply) => {
    document ??= build();
    return reply.type("application/json; charset=utf-8").header("cache-control", "no-cache").send(document);
  });

  app.get(DOCS_PATH, async (_request, reply) =>
    reply.type("text/html; charset=utf-8").header("content-security-policy", DOCS_CSP).send(DOCS_HTML),
  );
  app.get(DOCS_INIT_PATH, async (_request, reply) =>
    reply.type("text/javascript; charset=utf-8").header("cache-control", ASSET_CACHE).send(DOCS_INIT_SCRIPT),
  );
  for (const [path, asset] of docsAssets()) {
    app.get(path, async (_request, reply) =>
      reply.type(asset.contentType).header("cache-control", ASSET_CACHE).send(createReadStream(asset.file)),
    );
  }
}

export const openApiPlugin = fp(openApi, { name: "kopek-openapi", fastify: "5.x" });
