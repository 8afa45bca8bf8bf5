import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { json } from "./helper.js";

/**
 * A refusal as a client sees it: the status, an application/problem+json body with that status and
 * `code`, and a detail that says why. Answers the problem document for more assertions.
 */
export function expectProblem(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
  const problem = json(response);
  expect(problem).toMatchObject({ status, code });
  expect(problem.detail).toEqual(expect.any(String));
  return problem;
}
