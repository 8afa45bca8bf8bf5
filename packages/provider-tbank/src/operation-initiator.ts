/**
 * `DATA.OperationInitiatorType` of an `Init` ([T] "Передача признака инициатора операции", Init's `DATA`,
 * `Common.OperationInitiatorType`; a value off the list is error 1125, one that does not fit `Recurrent` or
 * `Charge`'s `RebillId` is 1126):
 * - `0` — the payer pays once, nothing saved (`Recurrent` N, no `RebillId`): a one-off card or SBP payment;
 * - `1` — the payer pays and the credential is saved (`Recurrent` Y): a payment that saves a card, and the
 *   SBP payment that binds the payer's account (`AddAccountQr`, `Init` with `Recurrent` Y);
 * - `R` — the merchant charges a saved card, no schedule (`Recurrent` N, `Charge` with `RebillId`): a renewal.
 * [T]'s table has no row for `ChargeQr`'s `Init`, which [T] makes with `Recurrent` Y (README): none is sent there.
 */
export const OPERATION_INITIATOR = { oneOff: "0", saving: "1", renewal: "R" } as const;

/** The `DATA` entry that names the operation's initiator. */
export const initiatorData = (kind: keyof typeof OPERATION_INITIATOR) => ({
  OperationInitiatorType: OPERATION_INITIATOR[kind],
});
