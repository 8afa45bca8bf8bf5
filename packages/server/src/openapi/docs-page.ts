import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * The `/docs` page: Scalar's API reference, its browser bundle served from this server's own copy of
 * `@scalar/fastify-api-reference` (dist/js/standalone.js; the package has no install script), so it
 * works offline. The bundle's own outside addresses — fonts, the request proxy, Scalar's cloud — are
 * turned off in the configuration (withDefaultFonts, no proxyUrl, telemetry: false), and the CSP
 * (`default-src 'self'`) would refuse them anyway: nothing leaves the server's origin
 * (test/docs-browser.test.ts checks the page's request log in Chromium).
 */

export const DOCS_PATH = "/docs";
export const OPENAPI_PATH = "/openapi.json";

/**
 * Scalar renders with Vue, which sets inline styles (hence `style-src 'unsafe-inline'`, styles only);
 * scripts, fonts, images and requests stay same-origin (`data:` for its icons).
 */
export const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'";

export interface DocsAsset {
  readonly file: string;
  readonly contentType: string;
}

/** Where Scalar's bundle is installed; resolved from this module so it works from source and dist. */
function scalarBundle(): string {
  const entry = createRequire(import.meta.url).resolve("@scalar/fastify-api-reference");
  return join(dirname(entry), "js", "standalone.js");
}

/** The one file of the package the page loads; nothing else of it is reachable. */
export function docsAssets(): ReadonlyMap<string, DocsAsset> {
  return new Map([
    [`${DOCS_PATH}/scalar.js`, { file: scalarBundle(), contentType: "text/javascript; charset=utf-8" }],
  ]);
}

export const DOCS_INIT_PATH = `${DOCS_PATH}/init.js`;

/** The one script of our own: a static file (not inline) that renders the document into #app. */
export const DOCS_INIT_SCRIPT = `Scalar.createApiReference("#app", {
  url: ${JSON.stringify(OPENAPI_PATH)},
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  // Scalar's AI agent, on by default on localhost, reaches its cloud (proxy.scalar.com): off.
  agent: { disabled: true }
});
`;

export const DOCS_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Kopek API</title>
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <link rel="icon" href="data:,">
  </head>
  <body>
    <div id="app"></div>
    <script src="${DOCS_PATH}/scalar.js"></script>
    <script src="${DOCS_INIT_PATH}"></script>
  </body>
</html>
`;
