import {
  AMOUNT_PATTERN,
  isUuid,
  type KopekError,
  MAX_REFUND_REASON_LENGTH,
  presentRefund,
  refundAsOperator,
  toProblem,
} from "@kopek/core";
import { loadConfig } from "../startup/config.js";
import { openServices } from "../startup/services.js";
import { type DatabaseCommandContext, failure } from "./database.js";
import { usage } from "./projects-commands.js";

export interface RefundOptions {
  readonly project?: string | undefined;
  readonly payment?: string | undefined;
  readonly amount?: string | undefined;
  readonly reason?: string | undefined;
}

/**
 * `kopek refunds create --project <id> --payment <id> [--amount N] [--reason …]`: an operator's refund,
 * through core's rules (what remains, reservation, provider call, events) exactly as the API's. Prints
 * the refund as the API shows it; a refusal is one line and exit 1.
 */
export async function refundsCreate(
  context: DatabaseCommandContext,
  options: RefundOptions,
): Promise<number> {
  const { io, storage } = context;
  const { project, payment, amount, reason } = options;
  if (project === undefined || !isUuid(project) || payment === undefined || !isUuid(payment))
    return usage(io, "refunds create needs --project <uuid> and --payment <uuid>");
  if (amount !== undefined && !AMOUNT_PATTERN.test(amount))
    return usage(io, "--amount is whole minor units of the payment's currency: 1 to 999999999999999999");
  if (reason !== undefined && reason.length > MAX_REFUND_REASON_LENGTH)
    return usage(io, `--reason is at most ${MAX_REFUND_REASON_LENGTH} characters`);
  const config = loadConfig(io.env);
  if (config.isErr()) return failure(io, config.error);
  const services = openServices(config.value);
  if (services.isErr()) return failure(io, services.error);
  const refunded = await refundAsOperator(
    {
      storage,
      providerFor: services.value.providerFor,
      clock: services.value.clock,
      // Told on stderr, beside the refund printed on stdout (pending): the operator running it decides.
      onAmountMismatch: ({ expected, answered, status }) =>
        io.stderr(
          `kopek: the provider answered the refund ${status} for ${answered?.amount ?? "no"} ${answered?.currency ?? "amount"}, ` +
            `not ${expected.amount} ${expected.currency}: it settled nothing and the refund stays pending (API.md 10.1)\n`,
        ),
    },
    { projectId: project, paymentId: payment, amount: amount ?? null, reason: reason ?? null },
  );
  if (refunded.isErr()) return failure(io, describe(refunded.error, project, payment));
  io.stdout(`${JSON.stringify(presentRefund(refunded.value), null, 2)}\n`);
  return 0;
}

function describe(error: KopekError, project: string, payment: string): string {
  if (error.code === "not_found") return `no payment ${payment} in project ${project}`;
  const { body } = toProblem(error, "cli");
  return `${body.code}: ${body.detail}`;
}
