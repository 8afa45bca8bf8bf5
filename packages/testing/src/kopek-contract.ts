import { describe } from "vitest";
import { registerAmountRuleTests } from "./kopek-contract-amount-rule.js";
import { registerChangeTests } from "./kopek-contract-changes.js";
import { registerCheckoutTests } from "./kopek-contract-checkout.js";
import { registerCreateTests } from "./kopek-contract-create.js";
import { registerCustomerTests } from "./kopek-contract-customers.js";
import { registerEarlyNotificationTests } from "./kopek-contract-early-notifications.js";
import { registerEventTests } from "./kopek-contract-events.js";
import { registerFuzzTests } from "./kopek-contract-fuzz.js";
import { registerIdempotencyTests } from "./kopek-contract-idempotency.js";
import { registerInvoiceAttemptTests } from "./kopek-contract-invoice-attempts.js";
import { registerInvoiceIdempotencyTests } from "./kopek-contract-invoice-idempotency.js";
import { registerLifecycleTests } from "./kopek-contract-lifecycle.js";
import { registerMethodUpdateTests } from "./kopek-contract-method-updates.js";
import { registerNoLostChargeTests } from "./kopek-contract-no-lost-charge.js";
import { registerNoLostMoneyTests } from "./kopek-contract-no-lost-money.js";
import { registerNotificationTests } from "./kopek-contract-notifications.js";
import { registerPageProjectTests } from "./kopek-contract-page-project.js";
import { registerPauseTests } from "./kopek-contract-pauses.js";
import { registerPaymentTests } from "./kopek-contract-payments.js";
import { registerPeriodEndTests } from "./kopek-contract-period-end.js";
import { registerProjectDeletionTests } from "./kopek-contract-project-deletion.js";
import { registerReceiptTests } from "./kopek-contract-receipts.js";
import { registerRefundTests } from "./kopek-contract-refunds.js";
import { registerRenewalTests } from "./kopek-contract-renewals.js";
import { registerRequestTests } from "./kopek-contract-requests.js";
import { registerSavedMethodTests } from "./kopek-contract-saved-methods.js";
import { registerSettlementTests } from "./kopek-contract-settlement.js";
import { registerTrialTests } from "./kopek-contract-trials.js";
import { registerYearTests } from "./kopek-contract-year.js";
import type { KopekContractOptions } from "./kopek-harness.js";

/**
 * The behaviour of API.md 3, 5 and 6 (events) through `kopek.handle`, run against a storage adapter and a
 * provider: every adapter must make Kopek behave the same.
 */
export function describeKopekContract(name: string, options: KopekContractOptions): void {
  describe(`Kopek on ${name}`, () => {
    registerRequestTests(options);
    registerCreateTests(options);
    registerIdempotencyTests(options);
    registerInvoiceIdempotencyTests(options);
    registerFuzzTests(options);
    registerLifecycleTests(options);
    registerRenewalTests(options);
    registerPeriodEndTests(options);
    registerChangeTests(options);
    registerPauseTests(options);
    registerMethodUpdateTests(options);
    registerYearTests(options);
    registerTrialTests(options);
    registerNoLostChargeTests(options);
    registerNoLostMoneyTests(options);
    registerEventTests(options);
    registerPaymentTests(options);
    registerCheckoutTests(options);
    registerPageProjectTests(options);
    registerInvoiceAttemptTests(options);
    registerSavedMethodTests(options);
    registerNotificationTests(options);
    registerEarlyNotificationTests(options);
    registerSettlementTests(options);
    registerRefundTests(options);
    registerAmountRuleTests(options);
    registerReceiptTests(options);
    registerCustomerTests(options);
    registerProjectDeletionTests(options);
  });
}
