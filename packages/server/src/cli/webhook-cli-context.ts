import { type EndpointContext, type KopekError, toProblem } from "@kopek/core";
import { webhookUrlRule } from "../webhooks/webhook-url-policy.js";
import { type DatabaseCommandContext, failure } from "./database.js";
import { projectArg } from "./project-arg.js";
import { usage } from "./projects-commands.js";

/** What `kopek webhooks …` and `kopek events …` share: their options, project, URL rule and refusals. */

export interface WebhookOptions {
  readonly project?: string | undefined;
  readonly url?: string | undefined;
  /** Comma-separated event types, or `all`. */
  readonly events?: string | undefined;
  readonly description?: string | undefined;
  readonly enabled?: string | undefined;
  readonly endpoint?: string | undefined;
  readonly status?: string | undefined;
  readonly type?: string | undefined;
  readonly limit?: string | undefined;
}

export async function endpointContext(
  context: DatabaseCommandContext,
  command: string,
  options: WebhookOptions,
): Promise<EndpointContext | number> {
  const project = await projectArg(context, command, options.project);
  if (typeof project === "number") return project;
  return {
    storage: context.storage,
    projectId: project,
    now: new Date(),
    urlProblem: webhookUrlRule(context.io.env),
  };
}

/** A refusal as one line: a usage error (2) for a bad option, else a failure (1). */
export function refused(
  context: DatabaseCommandContext,
  command: string,
  error: KopekError,
  what = "",
): number {
  const { io } = context;
  if (error.code === "validation_failed")
    return usage(
      io,
      `${command}: ${error.errors.map((e) => `${optionOf(e.pointer)} ${e.detail}`).join("; ")}`,
    );
  if (error.code === "url_not_allowed") return usage(io, `${command} --url: ${error.detail}`);
  if (error.code === "not_found") return failure(io, `no ${what}`);
  const { body } = toProblem(error, "cli");
  return failure(io, `${body.code}: ${body.detail ?? body.title}`);
}

/** `#/events/0` → `--events`; `#` → the command itself. */
function optionOf(pointer: string): string {
  const field = pointer.split("/")[1];
  return field === undefined ? "" : `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** The list options as the API's query. */
export function queryOf(options: WebhookOptions, names: readonly ("status" | "type" | "limit")[]) {
  return Object.fromEntries(
    names.flatMap((name) => (options[name] === undefined ? [] : [[name, options[name]]])),
  );
}
