import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * The `/docs` page: Swagger UI served from this server's own `swagger-ui-dist` copy, so it works
 * offline and under `Content-Security-Policy: default-src 'self'` — no CDN, no inline script or style.
 */

export const DOCS_PATH = "/docs";
export const OPENAPI_PATH = "/openapi.json";

/** Fonts and icons of Swagger UI are `data:` URIs in its stylesheet; everything else is same-origin. */
export const DOCS_CSP = "default-src 'self'; img-src 'self' data:; font-src 'self' data:";

/** The files of swagger-ui-dist the page loads; nothing else of the package is reachable. */
const SWAGGER_UI_FILES: Readonly<Record<string, string>> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "index.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

export interface DocsAsset {
  readonly file: string;
  readonly contentType: string;
}

/** Where swagger-ui-dist is installed; resolved from this module so it works from source and dist. */
function swaggerUiDir(): string {
  return dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
}

export function docsAssets(): ReadonlyMap<string, DocsAsset> {
  const dir = swaggerUiDir();
  return new Map(
    Object.entries(SWAGGER_UI_FILES).map(([name, contentType]) => [
      `${DOCS_PATH}/${name}`,
      { file: join(dir, name), contentType },
    ]),
  );
}

export const DOCS_INIT_PATH = `${DOCS_PATH}/init.js`;

/** The one script of our own: a static file (not inline) that points Swagger UI at the document. */
export const DOCS_INIT_SCRIPT = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(OPENAPI_PATH)},
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: "StandaloneLayout",
    validatorUrl: null,
    tryItOutEnabled: true,
    persistAuthorization: false
  });
});
`;

export const DOCS_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Kopek API</title>
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
    <link rel="stylesheet" href="${DOCS_PATH}/index.css">
    <link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
    <script src="${DOCS_PATH}/swagger-ui-standalone-preset.js"></script>
    <script src="${DOCS_INIT_PATH}"></script>
  </body>
</html>
`;
