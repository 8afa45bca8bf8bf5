import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { renderSchemaTypes, SCHEMA_FILE } from "./schema-types.js";

await writeFile(SCHEMA_FILE, await renderSchemaTypes());
console.log(`wrote ${fileURLToPath(SCHEMA_FILE)}`);
