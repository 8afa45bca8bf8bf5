import { isDeepStrictEqual } from "node:util";
import { z } from "zod";

export type JsonSchema = { [keyword: string]: unknown };

const COMPONENT_REF = "#/components/schemas/";

/**
 * Converts zod schemas that carry `.meta({ id })` into OpenAPI 3.1 `components.schemas`. Every
 * schema with an id (Money, Period, …) becomes one component referenced by `$ref`, so a shape is
 * described once however many operations use it. `io: "input"` describes what a client may send;
 * the response schemas have no transforms or defaults, so their input and output shapes agree.
 */
export function toComponentSchemas(roots: readonly z.ZodType[]): Record<string, JsonSchema> {
  const components: Record<string, JsonSchema> = {};
  for (const root of roots) {
    const converted = z.toJSONSchema(root, {
      io: "input",
      target: "draft-2020-12",
      unrepresentable: "throw",
    });
    if (typeof converted.$ref !== "string" || !converted.$ref.startsWith("#/$defs/")) {
      throw new Error("openapi: every root schema needs .meta({ id }) so it becomes a named component");
    }
    const defs = (converted.$defs ?? {}) as Record<string, JsonSchema>;
    for (const [id, schema] of Object.entries(defs)) {
      const component = toOpenApiSchema(schema) as JsonSchema;
      const existing = components[id];
      if (existing !== undefined && !isDeepStrictEqual(existing, component)) {
        throw new Error(`openapi: two different schemas share the id "${id}"`);
      }
      components[id] = component;
    }
  }
  return sortKeys(components);
}

/** A `$ref` to the component generated for a schema with `.meta({ id })`. */
export function componentRef(schema: z.ZodType): { $ref: string } {
  const id = z.globalRegistry.get(schema)?.id;
  if (typeof id !== "string") throw new Error("openapi: schema has no .meta({ id })");
  return { $ref: COMPONENT_REF + id };
}

/** Re-points `$defs` references at components; `example` (OpenAPI 3.0 style) becomes `examples`. */
function toOpenApiSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toOpenApiSchema);
  if (node === null || typeof node !== "object") return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref" && typeof value === "string") out.$ref = value.replace(/^#\/\$defs\//, COMPONENT_REF);
    else if (key === "example") out.examples = [value];
    else if (key === "properties" || key === "$defs")
      out[key] = mapValues(value as JsonSchema, toOpenApiSchema);
    else out[key] = toOpenApiSchema(value);
  }
  return out;
}

function mapValues(record: JsonSchema, f: (value: unknown) => unknown): JsonSchema {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, f(value)]));
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
