import { readFile } from "node:fs/promises";
import { expect, it } from "vitest";
import { renderSchemaTypes, SCHEMA_FILE } from "../scripts/schema-types.js";

it("src/schema.generated.ts is exactly what the current OpenAPI document generates (run `generate` if not)", async () => {
  const committed = await readFile(SCHEMA_FILE, "utf8");
  expect(committed).toBe(await renderSchemaTypes());
});
