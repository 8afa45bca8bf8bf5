import type { core } from "zod";
import type { FieldIssue, FieldIssueCode } from "../domain/errors.js";
import { toPointer } from "./json-pointer.js";

type ZodIssue = core.$ZodIssue;

/**
 * Turns zod's issues into Kopek's `errors[]` entries. `input` is the raw body, used to tell a field
 * that is missing (`required`) from one of the wrong type.
 */
export function toFieldIssues(issues: readonly ZodIssue[], input: unknown): FieldIssue[] {
  const out: FieldIssue[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        out.push(issue_([...issue.path, key], "unknown_field", "is not a known field"));
      }
      continue;
    }
    out.push(convert(issue, input));
  }
  return out;
}

function convert(issue: ZodIssue, input: unknown): FieldIssue {
  const { path } = issue;
  if (issue.code !== "custom" && isMissing(input, path)) return issue_(path, "required", "is required");
  switch (issue.code) {
    case "invalid_type":
      return issue_(path, "invalid_type", `must be ${article(issue.expected)}`);
    case "too_small":
      return issue_(path, "too_small", smallDetail(issue.origin, issue.minimum));
    case "too_big":
      return issue.origin === "string"
        ? issue_(path, "too_long", `must be at most ${issue.maximum} characters`)
        : issue_(path, "too_large", bigDetail(issue.origin, issue.maximum));
    case "invalid_format":
      return issue_(path, "invalid_format", formatDetail(issue.format, issue.message));
    case "invalid_value":
      return issue_(
        path,
        "invalid_value",
        `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`,
      );
    case "invalid_key": {
      const inner = issue.issues[0];
      const tooLong = inner?.code === "too_big";
      return issue_(
        path,
        tooLong ? "too_long" : "invalid_value",
        tooLong ? "key is too long" : "key is not allowed",
      );
    }
    case "custom": {
      const code = (issue.params?.code as FieldIssueCode | undefined) ?? "invalid_value";
      return issue_(path, code, issue.message);
    }
    default:
      return issue_(path, "invalid_value", "is not valid");
  }
}

function issue_(path: readonly PropertyKey[], code: FieldIssueCode, detail: string): FieldIssue {
  return { pointer: toPointer(path), code, detail };
}

function isMissing(input: unknown, path: readonly PropertyKey[]): boolean {
  let node = input;
  for (let i = 0; i < path.length - 1; i++) {
    if (node === null || typeof node !== "object") return false;
    node = (node as Record<PropertyKey, unknown>)[path[i] as PropertyKey];
  }
  const last = path[path.length - 1];
  return (
    last !== undefined && node !== null && typeof node === "object" && !Object.hasOwn(node, last as string)
  );
}

const ARTICLES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  object: "an object",
  array: "an array",
  boolean: "a boolean",
};

function article(expected: string): string {
  return ARTICLES[expected] ?? expected;
}

function smallDetail(origin: string, minimum: number | bigint): string {
  if (origin === "string")
    return minimum === 1 ? "must not be empty" : `must be at least ${minimum} characters`;
  if (origin === "array") return `must have at least ${minimum} item${minimum === 1 ? "" : "s"}`;
  return `must be at least ${minimum}`;
}

function bigDetail(origin: string, maximum: number | bigint): string {
  if (origin === "array") return `must have at most ${maximum} items`;
  if (origin === "object") return `must have at most ${maximum} keys`;
  return `must be at most ${maximum}`;
}

const FORMAT_DETAILS: Record<string, string> = {
  email: "must be a valid e-mail address",
  url: "must be an absolute http: or https: URL",
  datetime: "must be an ISO 8601 timestamp, e.g. 2026-11-22T09:30:00.000Z",
};

function formatDetail(format: string, message: string): string {
  return FORMAT_DETAILS[format] ?? message;
}
