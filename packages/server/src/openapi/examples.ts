/**
 * Request bodies shown in the document. The OpenAPI test checks that each is accepted both by the
 * document's schema and by core's validation, so the examples can never teach a rejected body.
 */
export const EXAMPLE_SUBSCRIPTION_REQUEST = {
  amount: { amount: "149900", currency: "RUB" },
  period: { unit: "month", count: 1 },
  method: "card",
  providerMethodRef: "pm_sandbox_visa",
  description: "Pro plan",
  metadata: { customerId: "c_42" },
} as const;

export const EXAMPLE_INVOICE_REQUEST = {
  amount: { amount: "49900", currency: "RUB" },
  methods: ["card", "sbp"],
  description: "Order 1042",
  customer: { email: "payer@example.com", phone: "+79991234567" },
  returnUrl: "https://shop.example.com/orders/1042",
} as const;

export const EXAMPLE_REFUND_REQUEST = {
  amount: { amount: "49900", currency: "RUB" },
  reason: "Order 1042 returned",
} as const;

export const EXAMPLE_CUSTOMER_REQUEST = {
  email: "payer@example.com",
  name: "Anna Petrova",
  externalId: "user-1042",
  metadata: { plan: "pro" },
} as const;
