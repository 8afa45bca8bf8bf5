import type { JsonSchema } from "./component-schemas.js";

/** The most keys a metadata object may have (API.md 5). */
export const MAX_METADATA_KEYS = 50;

/**
 * An http(s) URL, the scheme in any case (URLs' schemes are case-insensitive): what `returnUrl`
 * accepts. The other rules of a URL (absolute, ≤ 2048) are `format: uri` and `maxLength`.
 */
export const HTTP_URL_PATTERN = "^[Hh][Tt][Tt][Pp][Ss]?://";

function patch(
  schemas: Record<string, JsonSchema>,
  name: string,
  change: (schema: JsonSchema) => JsonSchema,
) {
  const schema = schemas[name];
  if (schema === undefined) throw new Error(`openapi: no component schema ${name} to make strict`);
  schemas[name] = change(schema);
}

const property = (schema: JsonSchema, name: string) =>
  (schema.properties as Record<string, JsonSchema> | undefined)?.[name] ?? {};

/**
 * The contract's rules that JSON Schema can say but the request schemas' conversion does not carry:
 * metadata's `maxProperties`, distinct `methods`, not both `method` and `methods`, `returnUrl` only
 * http(s). Applied to the generated components, so the document is as strict as the server; the
 * rules no schema can say are in the operations' descriptions (API.md is the whole contract).
 */
export function strictSchemas(generated: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const schemas = { ...generated };
  patch(schemas, "Metadata", (metadata) => ({ ...metadata, maxProperties: MAX_METADATA_KEYS }));
  patch(schemas, "CreateInvoiceRequest", (request) => {
    const returnUrl = property(request, "returnUrl");
    const variants = (returnUrl.anyOf as JsonSchema[] | undefined) ?? [returnUrl];
    return {
      ...request,
      properties: {
        ...(request.properties as Record<string, JsonSchema>),
        methods: { ...property(request, "methods"), uniqueItems: true },
        returnUrl: {
          ...returnUrl,
          ...(returnUrl.anyOf === undefined
            ? { pattern: HTTP_URL_PATTERN }
            : {
                anyOf: variants.map((v) => (v.type === "string" ? { ...v, pattern: HTTP_URL_PATTERN } : v)),
              }),
        },
      },
      // `method` pins one method, `methods` allows several: 422 mutually_exclusive with both.
      not: { required: ["method", "methods"], properties: { method: {}, methods: {} } },
    };
  });
  return schemas;
}
