import {
  changeSubscriptionAsOperator,
  isUuid,
  type KopekError,
  presentSubscription,
  type SubscriptionChange,
  toProblem,
} from "@kopek/core";
import { type DatabaseCommandContext, failure } from "./database.js";
import { projectArg } from "./project-arg.js";
import { usage } from "./projects-commands.js";

export interface SubscriptionCancelOptions {
  readonly project?: string | undefined;
  readonly atPeriodEnd?: boolean | undefined;
  readonly undo?: boolean | undefined;
}

/**
 * `kopek subscriptions cancel <subscription-id> --project <id> [--at-period-end | --undo]`: cancels
 * now, at the end of the paid period, or undoes a cancel at period end — the rules and events of
 * `POST /v1/subscriptions/{id}/cancel` and `POST /v1/subscriptions/{id}` (API.md 11.2). Prints the
 * subscription as the API shows it; a refusal is one line and exit 1.
 */
export async function subscriptionsCancel(
  context: DatabaseCommandContext,
  id: string | undefined,
  options: SubscriptionCancelOptions,
): Promise<number> {
  const { io, storage } = context;
  if (id === undefined || !isUuid(id))
    return usage(io, "subscriptions cancel needs <subscription-id> (a UUID)");
  if (options.atPeriodEnd === true && options.undo === true)
    return usage(io, "subscriptions cancel takes --at-period-end or --undo, not both");
  const project = await projectArg(context, "subscriptions cancel", options.project);
  if (typeof project === "number") return project;
  const change: SubscriptionChange =
    options.undo === true
      ? { kind: "update", cancelAtPeriodEnd: false }
      : { kind: "cancel", at: options.atPeriodEnd === true ? "period_end" : "now" };
  const changed = await changeSubscriptionAsOperator({ storage }, project, id.toLowerCase(), change);
  if (changed.isErr()) return failure(io, describe(changed.error, project, id));
  io.stdout(`${JSON.stringify(presentSubscription(changed.value), null, 2)}\n`);
  return 0;
}

function describe(error: KopekError, project: string, id: string): string {
  if (error.code === "not_found") return `no subscription ${id} in project ${project}`;
  const { body } = toProblem(error, "cli");
  return `${body.code}: ${body.detail}`;
}
