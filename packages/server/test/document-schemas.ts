import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
type Json = any;

/**
 * Ajv over the document's components, so `#/components/schemas/…` references resolve as in the
 * document: `schemaFor(name)` checks a value against one component schema.
 */
export function compileAgainstDocument(doc: Json) {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats.default(ajv);
  ajv.addKeyword({ keyword: "components" });
  ajv.addSchema({ $id: "https://kopek.test/openapi.json", components: doc.components });
  return (name: string) => {
    const validate = ajv.getSchema(`https://kopek.test/openapi.json#/components/schemas/${name}`);
    if (validate === undefined) throw new Error(`no component ${name}`);
    return (value: unknown) => validate(value) as boolean;
  };
}
