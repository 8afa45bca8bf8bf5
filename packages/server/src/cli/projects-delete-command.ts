import {
  deleteProjectAsOperator,
  type ErasedProjectData,
  isUuid,
  type MoneyRecordCounts,
  type RemovedProjectRows,
  toProblem,
} from "@kopek/core";
import { type DatabaseCommandContext, failure } from "./database.js";
import { operatorOptions } from "./operator-commands.js";
import { noProject, usage } from "./projects-commands.js";

/** "1 invoice", "3 invoices": `many` when the plural is not the singular and an s. */
function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The money records counted, the kinds it has none of left out. */
function moneyText(money: MoneyRecordCounts): string {
  return [
    money.invoices > 0 ? count(money.invoices, "invoice") : "",
    money.subscriptions > 0 ? count(money.subscriptions, "subscription") : "",
    money.payments > 0 ? count(money.payments, "payment") : "",
    money.refunds > 0 ? count(money.refunds, "refund") : "",
  ]
    .filter((text) => text !== "")
    .join(", ");
}

function removedText(removed: RemovedProjectRows): string {
  return [
    count(removed.apiKeys, "API key"),
    count(removed.customers, "customer"),
    count(removed.events, "event"),
    count(removed.webhookEndpoints, "webhook endpoint"),
    count(removed.webhookDeliveries, "webhook delivery", "webhook deliveries"),
    count(removed.idempotencyRecords, "idempotency record"),
  ].join(", ");
}

function erasedText(erased: ErasedProjectData): string {
  return [
    `${count(erased.apiKeysRevoked, "API key")} revoked`,
    `${count(erased.webhookEndpointsRemoved, "webhook endpoint")} removed`,
    `${count(erased.subscriptionsCanceled, "subscription")} canceled`,
    `${count(erased.customersErased, "customer")} erased`,
  ].join(", ");
}

/**
 * `kopek projects delete <project-id> [--force]` (API.md 11.1). A project with no money record is
 * deleted with everything it has; one with money records is refused (exit 1), or with `--force` kept
 * for them and marked deleted, the rest erased (`deleteProjectAsOperator`). Prints what it did.
 */
export async function projectsDelete(
  context: Pick<DatabaseCommandContext, "storage" | "io">,
  projectId: string | undefined,
  { force }: { readonly force: boolean },
): Promise<number> {
  const { io } = context;
  if (projectId === undefined) return usage(io, "projects delete needs a project id");
  if (!isUuid(projectId)) return noProject(io, projectId);
  const id = projectId.toLowerCase();
  const options = operatorOptions(context);
  if (typeof options === "string") return failure(io, options);
  const done = await deleteProjectAsOperator(options, id, { force });
  if (done.isErr()) {
    const { error } = done;
    if (error.code === "not_found") return noProject(io, projectId);
    // A storage failure as the adapter words it (the other database commands say the same), not the
    // API's "it has been logged": a command logs nothing.
    const cause = "cause" in error ? (error.cause as { message?: unknown } | undefined) : undefined;
    if (typeof cause?.message === "string") return failure(io, cause.message);
    const { body } = toProblem(error, "cli");
    return failure(io, `${body.code}: ${body.detail ?? body.title}`);
  }
  const outcome = done.value;
  const named = `project ${id} (${outcome.project.name})`;
  if (outcome.kind === "deleted") {
    io.stdout(`deleted ${named} with everything it had: ${removedText(outcome.removed)}\n`);
    return 0;
  }
  const money = moneyText(outcome.money);
  if (outcome.kind === "refused") {
    const earlier = outcome.project.deletedAt;
    return failure(
      io,
      earlier === undefined
        ? `${named} has ${money}: money records stay (API.md 11.1); \`kopek projects delete ${id} --force\` erases the rest`
        : `${named} was deleted at ${earlier.toISOString()} and keeps only its money records: ${money} (API.md 11.1)`,
    );
  }
  const { erased } = outcome;
  const changed = Object.values(erased).some((n) => n > 0) || outcome.project.deletedAt === undefined;
  io.stdout(
    changed
      ? `${named} is deleted; its money records stay (${money}; API.md 11.1): ${erasedText(erased)}\n`
      : `${named} was deleted at ${outcome.deletedAt.toISOString()}: nothing changed; its money records stay (${money}; API.md 11.1)\n`,
  );
  return 0;
}
