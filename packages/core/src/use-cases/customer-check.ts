import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import { type Execution, fromStorageError } from "./execution.js";

/**
 * The `customerId` a subscription or invoice names (API.md 11.1), once it is known to be one of this
 * project's customers: null when none was named; 422 `customer_not_found` for an id of no customer of
 * the project (another project's included), before anything else is done.
 */
export async function checkedCustomerId(
  execution: Execution,
  customerId: string | undefined,
): Promise<Result<string | null, KopekError>> {
  if (customerId === undefined) return ok(null);
  const found = await execution.storage.findCustomer(execution.project.id, customerId);
  if (found.isErr()) return err(fromStorageError(found.error));
  if (found.value === null)
    return err({
      code: "customer_not_found",
      detail: `no customer of this project has the id ${customerId}`,
    });
  return ok(found.value.id);
}
