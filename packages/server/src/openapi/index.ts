export { buildOpenApiDocument, type OpenApiDocumentOptions } from "./document.js";
export { type OpenApiPluginOptions, openApiPlugin } from "./plugin.js";
