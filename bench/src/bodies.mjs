// The request bodies both sides receive, byte for byte, and the baseline's answer. Plain JavaScript so
// the baseline server (plain node, no loader) and the TypeScript bench share them.

/** ~400 bytes: an invoice a shop would really send (every optional field the contract allows). */
export const INVOICE_BODY = JSON.stringify({
  amount: { amount: "149900", currency: "RUB" },
  methods: ["card", "sbp"],
  description: "Order 1042: coffee beans 1 kg x 2, hand grinder x 1",
  comment: "Please call before delivery",
  customer: { email: "payer@example.com", phone: "+79991234567", externalId: "customer-1042" },
  metadata: { orderId: "1042", channel: "web", campaign: "autumn-sale" },
  returnUrl: "https://shop.example.com/orders/1042/thanks",
});

export const SUBSCRIPTION_BODY = JSON.stringify({
  amount: { amount: "149900", currency: "RUB" },
  period: { unit: "month", count: 1 },
  method: "card",
  providerMethodRef: "pm_sandbox_bench_visa",
  description: "Coffee club: 1 kg every month",
  metadata: { plan: "coffee-club", channel: "web", customerId: "customer-1042" },
});

/** ~700 bytes: what the baseline answers, shaped like Kopek's invoice (the minimal SQL stores it too). */
export const INVOICE_RESPONSE = JSON.stringify({
  id: "019a5c1e-7d2b-7c3e-9f4a-2b1c0d9e8f7a",
  status: "created",
  amount: { amount: "149900", currency: "RUB" },
  description: "Order 1042: coffee beans 1 kg x 2, hand grinder x 1",
  comment: "Please call before delivery",
  customer: { email: "payer@example.com", phone: "+79991234567", externalId: "customer-1042" },
  metadata: { orderId: "1042", channel: "web", campaign: "autumn-sale" },
  paymentUrl:
    "http://127.0.0.1:3000/pay/019a5c1e-0000-7000-8000-00000000b0c1/019a5c1e-7d2b-7c3e-9f4a-2b1c0d9e8f7a",
  returnUrl: "https://shop.example.com/orders/1042/thanks",
  methods: ["card", "sbp"],
  method: null,
  pinnedMethod: null,
  createdAt: "2026-11-22T09:30:00.000Z",
  expiresAt: "2026-11-29T09:30:00.000Z",
  paidAt: null,
  requestedBy: "bench",
});
