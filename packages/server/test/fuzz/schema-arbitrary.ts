import fc from "fast-check";

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI schemas are walked as plain JSON
type Schema = any;

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  uuid: fc.uuid(),
  uri: fc.webUrl({ validSchemes: ["https", "http"] }),
  email: fc.emailAddress(),
  "date-time": fc
    .integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) })
    .map((ms) => new Date(ms).toISOString()),
};

/**
 * A fast-check arbitrary of values a JSON Schema (the OpenAPI document's subset: `$ref`, `anyOf`,
 * `oneOf`, `enum`, `const`, types with their bounds, `pattern`, `format`, `items`, `uniqueItems`,
 * `properties`, `required`, `additionalProperties`, `propertyNames`, `maxProperties`) accepts,
 * mostly. Keywords it does not model (`not`, formats it does not know) may let an invalid value
 * through — the fuzz test wants those too, since the server must then refuse them as documented.
 * Written here because the JSON-Schema-to-fast-check packages found (json-schema-fast-check 0.0.6,
 * zod-fast-check for zod 3) are unmaintained or do not fit zod 4 and fast-check 4.
 */
export function arbitraryFor(
  schema: Schema,
  resolve: (ref: string) => Schema,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (schema.$ref !== undefined) return arbitraryFor(resolve(schema.$ref), resolve, depth);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants !== undefined)
    return fc.oneof(...variants.map((v: Schema) => arbitraryFor(v, resolve, depth)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1_000_000 });
    case "number":
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case "string":
      return stringFor(schema);
    case "array": {
      const items = arbitraryFor(schema.items ?? {}, resolve, depth + 1);
      const bounds = { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) };
      return schema.uniqueItems === true
        ? fc.uniqueArray(items, { ...bounds, selector: (v) => JSON.stringify(v) })
        : fc.array(items, bounds);
    }
    case "object":
      return objectFor(schema, resolve, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringFor(schema: Schema): fc.Arbitrary<string> {
  const format = FORMATS[schema.format as string];
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 40, Math.max(min, 40));
  const base =
    format ??
    (schema.pattern !== undefined
      ? fc.stringMatching(new RegExp(schema.pattern))
      : fc.string({ minLength: min, maxLength: max }));
  return base.filter((s) => s.length >= min && s.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY));
}

function objectFor(schema: Schema, resolve: (ref: string) => Schema, depth: number): fc.Arbitrary<unknown> {
  const properties: Record<string, Schema> = schema.properties ?? {};
  if (Object.keys(properties).length === 0 && typeof schema.additionalProperties === "object") {
    const keys = stringFor(schema.propertyNames ?? { minLength: 1, maxLength: 10 });
    return fc.dictionary(keys, arbitraryFor(schema.additionalProperties, resolve, depth + 1), {
      maxKeys: Math.min(schema.maxProperties ?? 5, 5),
    });
  }
  if (depth > 4) return fc.constant({});
  const record = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, arbitraryFor(property, resolve, depth + 1)]),
  );
  return fc.record(record, { requiredKeys: schema.required ?? [] });
}
