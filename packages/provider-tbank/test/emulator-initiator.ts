import type { Answer } from "./emulator-api.js";
import { refusal } from "./emulator-refusals.js";

export const dataOf = (body: Record<string, unknown>): Record<string, unknown> =>
  typeof body.DATA === "object" && body.DATA !== null ? (body.DATA as Record<string, unknown>) : {};

// [T] "Передача признака инициатора операции" and Common.OperationInitiatorType: 0, 1, 2, R, I; 1 goes with
// Recurrent=Y, the others without it; anything else is 1125, a mismatch 1126.
const INITIATORS = new Set(["0", "1", "2", "R", "I"]);
export const mismatchedInitiator = () =>
  refusal(
    "1126",
    "Несопоставимые значения rebillId или Recurrent с переданным значением OperationInitiatorType",
  );

export function initiatorRefusal(data: Record<string, unknown>, recurrent: boolean): Answer | null {
  const initiator = data.OperationInitiatorType;
  if (initiator === undefined) return null;
  if (typeof initiator !== "string" || !INITIATORS.has(initiator))
    return refusal("1125", "Некорректное значение OperationInitiatorType. Должно быть одно из списка");
  return (initiator === "1") === recurrent ? null : mismatchedInitiator();
}
