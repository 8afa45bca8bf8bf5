import { err, ok, type Result } from "neverthrow";
import type { z } from "zod";
import type { FieldIssue, KopekErrorOf } from "../domain/errors.js";
import { stringIssues } from "./body-strings.js";
import { cardNumberRule } from "./card-field-rule.js";
import { toFieldIssues } from "./field-issues.js";
import { storableCharacterRule } from "./storable-text.js";

/** The rules of every string of every body, keys included: storable characters first, then no card data. */
const BODY_STRING_RULES = [storableCharacterRule, cardNumberRule];

export type ValidationFailure = KopekErrorOf<"validation_failed">;

/**
 * `fastPath` (see `fast-path.ts`) vouches for the common valid body without zod. When it is unsure, or
 * a contextual check objects, zod runs as if there were no fast path, so every problem is reported.
 * The rules of every string (`BODY_STRING_RULES`: storable characters, no card data) are contextual
 * checks of every body.
 */
export function validate<S extends z.ZodType>(
  schema: S,
  fastPath: ((body: unknown) => z.output<S> | undefined) | null,
  body: unknown,
  fieldChecks: (issues: FieldIssue[]) => void,
): Result<z.output<S>, ValidationFailure> {
  const contextual = (issues: FieldIssue[]) => {
    fieldChecks(issues);
    issues.push(...stringIssues(body, BODY_STRING_RULES));
  };
  const fast = fastPath?.(body);
  if (fast !== undefined) {
    const issues: FieldIssue[] = [];
    contextual(issues);
    if (issues.length === 0) return ok(fast);
  }
  const parsed = schema.safeParse(body);
  const issues = parsed.success ? [] : toFieldIssues(parsed.error.issues, body);
  contextual(issues);
  if (issues.length > 0 || !parsed.success) return err({ code: "validation_failed", errors: issues });
  return ok(parsed.data);
}
