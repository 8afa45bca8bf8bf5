import {
  changeSubscriptionAsOperator,
  createMethodUpdate,
  eraseCustomer,
  isUuid,
  type KopekError,
  type OperatorExecutionOptions,
  presentSubscription,
  resumeSubscription,
  runAsOperator,
  toProblem,
} from "@kopek/core";
import { loadConfig } from "../startup/config.js";
import { openServices } from "../startup/services.js";
import { type DatabaseCommandContext, failure } from "./database.js";
import { projectArg } from "./project-arg.js";
import { usage } from "./projects-commands.js";

type OperatorCommand =
  | "subscriptions pause"
  | "subscriptions resume"
  | "subscriptions method-update"
  | "customers erase";

/**
 * `kopek subscriptions pause|resume|method-update <id> --project <id>` and `kopek customers erase <id>
 * --project <id>`: the API's operations (API.md 11.4, 11.5, 11.1) run by an operator, with the same
 * rules, charges and events. A resume of a paused subscription charges its saved method through the
 * project's provider, as the server would; a method update's link starts at KOPEK_PUBLIC_URL (else
 * where `kopek serve` listens by HOST and PORT). Prints what the API answers; a refusal is one line
 * and exit 1.
 */
export async function operatorCommand(
  context: DatabaseCommandContext,
  command: OperatorCommand,
  id: string | undefined,
  projectOption: string | undefined,
): Promise<number> {
  const { io, storage } = context;
  const what = command.startsWith("customers") ? "customer" : "subscription";
  if (id === undefined || !isUuid(id)) return usage(io, `${command} needs <${what}-id> (a UUID)`);
  const project = await projectArg(context, command, projectOption);
  if (typeof project === "number") return project;
  const resourceId = id.toLowerCase();
  if (command === "subscriptions pause") {
    const paused = await changeSubscriptionAsOperator({ storage }, project, resourceId, { kind: "pause" });
    if (paused.isErr()) return failure(io, describe(paused.error, what, project, id));
    io.stdout(`${JSON.stringify(presentSubscription(paused.value), null, 2)}\n`);
    return 0;
  }
  const options = operatorOptions(context);
  if (typeof options === "string") return failure(io, options);
  const done = await runAsOperator(options, project, (execution) =>
    command === "customers erase"
      ? eraseCustomer(execution, resourceId)
      : command === "subscriptions method-update"
        ? createMethodUpdate(execution, {}, resourceId)
        : resumeSubscription(execution, {}, resourceId),
  );
  if (done.isErr()) return failure(io, describe(done.error, what, project, id));
  io.stdout(`${JSON.stringify(done.value, null, 2)}\n`);
  return 0;
}

/**
 * What an operator's command runs the API's use cases with, as the server would: the project's
 * providers and the clock from the configuration; or why the configuration cannot be used.
 */
export function operatorOptions({
  storage,
  io,
}: Pick<DatabaseCommandContext, "storage" | "io">): OperatorExecutionOptions | string {
  const config = loadConfig(io.env);
  if (config.isErr()) return config.error;
  const services = openServices(config.value);
  if (services.isErr()) return services.error;
  const { host, port, publicUrl } = config.value;
  return {
    storage,
    providerFor: services.value.providerFor,
    clock: services.value.clock,
    publicUrl: publicUrl ?? `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
  };
}

function describe(error: KopekError, what: string, project: string, id: string): string {
  if (error.code === "not_found") return `no ${what} ${id} in project ${project}`;
  const { body } = toProblem(error, "cli");
  return `${body.code}: ${body.detail ?? body.title}`;
}
