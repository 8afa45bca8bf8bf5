import openapiTS, { astToString } from "openapi-typescript";
import { buildOpenApiDocument } from "../../server/src/openapi/document.js";

/** Where the generated types live, committed so the client builds without the server. */
export const SCHEMA_FILE = new URL("../src/schema.generated.ts", import.meta.url);

const HEADER = `// Generated from @kopek/server's OpenAPI document by \`pnpm --filter @kopek/client generate\`.
// Do not edit: a test fails when this file and the document disagree.

`;

/**
 * The TypeScript types of the current OpenAPI document, exactly as `generate` writes them. The
 * document is built from the server's source, so nothing has to run or listen to regenerate.
 */
export async function renderSchemaTypes(): Promise<string> {
  // publicUrl only fills `servers`, which no generated type carries.
  const document = buildOpenApiDocument({ publicUrl: "http://127.0.0.1:3000" });
  const ast = await openapiTS(JSON.stringify(document), { silent: true, alphabetize: false });
  return HEADER + astToString(ast);
}
