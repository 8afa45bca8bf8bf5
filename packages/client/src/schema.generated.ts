// Generated from @kopek/server's OpenAPI document by `pnpm --filter @kopek/client generate`.
// Do not edit: a test fails when this file and the document disagree.

export interface paths {
    "/v1/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List subscriptions, newest first
         * @description A page of at most `limit`; `nextCursor` (null on the last page) fetches the next, older one.
         */
        get: operations["listSubscriptions"];
        put?: never;
        /** Create a subscription: charge its first cycle, or take a paid invoice's payment as it */
        post: operations["createSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a subscription */
        get: operations["getSubscription"];
        put?: never;
        /**
         * Change a subscription
         * @description `amount` and `period` apply from the next cycle (`nextChargeAt` stays; a new period re-anchors there), only on an active subscription whose renewal is not due or under way (else 409 invalid_state); a subscription with a receipt needs one that adds up to the new amount. `proration: charge_now` charges the prorated difference of a raise at once, `(new − old) × remaining ÷ cycle length` on whole seconds, rounded down, as a Payment of kind proration; declined, 402 and nothing changes; no answer, 503 and the retry with the same key asks again. `cancelAtPeriodEnd: true` cancels it at the end of the paid period (as cancel with `at: period_end`); `false` undoes that before `cancelAt`. A change is answered with the subscription and sent as `subscription.updated` (its `data.previous` holds the fields that changed, as they were); asking for what is already so changes nothing and sends no event. A canceled subscription, or an undo after `cancelAt` passed, is 409 invalid_state.
         */
        post: operations["updateSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a subscription
         * @description Without a body, or `at: now`: a subscription not yet canceled ends now: `status` canceled, `canceledAt` set, `cancelReason` requested; no further charge is attempted. `at: period_end`: it stays active with `cancelAt` = `nextChargeAt` and `cancelAtPeriodEnd` true, is not charged then and becomes canceled at that moment (`subscription.updated` now, `subscription.canceled` then); 409 invalid_state for one past due (its period is unpaid), incomplete, or whose renewal is under way. An already-canceled one is 409 invalid_state (the same Idempotency-Key replays the first answer).
         */
        post: operations["cancelSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a subscription at the end of its paid period
         * @description An active subscription stays active with `pauseAt` = `nextChargeAt` (`subscription.updated`); then nothing is charged and it becomes paused (`subscription.paused`). Asked again, or of a paused one, nothing changes. 409 invalid_state for one not active, canceled at period end, or whose renewal is under way.
         */
        post: operations["pauseSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a subscription
         * @description Before `pauseAt`: only clears it (`subscription.updated`). A paused subscription is charged at once for a new cycle, `cyclesStarted` + 1, its schedule re-anchored now (`subscription.resumed`); declined: 402 and it stays paused; no answer: 503, and the retry with the same Idempotency-Key continues the same charge (the renewal worker settles it otherwise). 409 invalid_state for one neither paused nor pausing.
         */
        post: operations["resumeSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}/method-update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a link where the payer saves a new payment method
         * @description A link (valid 24 hours) to Kopek's page where the payer saves a new method for this subscription through the project's provider, with the smallest verification payment it takes, refunded at once. On the provider's verified word the subscription's `method` and `methodMask` change (`subscription.method_updated`) and a past_due one is charged for its overdue cycle at once; the old method is never charged again. A new link replaces the subscription's earlier one. 409 invalid_state for one canceled or incomplete; 422 method_unavailable when the provider can save no method the project charges later.
         */
        post: operations["createSubscriptionMethodUpdate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List invoices, newest first
         * @description A page of at most `limit`; `nextCursor` (null on the last page) fetches the next, older one.
         */
        get: operations["listInvoices"];
        put?: never;
        /** Create an invoice with a hosted payment page */
        post: operations["createInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve an invoice */
        get: operations["getInvoice"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel an invoice
         * @description An invoice that can still be paid (`created`, not past expiresAt) is canceled: `status` canceled, `canceledAt` set. A paid, expired or canceled one is 409 invalid_state.
         */
        post: operations["cancelInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List payments, newest first
         * @description A page of at most `limit`; `nextCursor` (null on the last page) fetches the next, older one.
         */
        get: operations["listPayments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a payment */
        get: operations["getPayment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments/{id}/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refund a succeeded payment, in full or in part
         * @description Without `amount`, all that remains refundable (the amount less `amountRefunded` and pending refunds). More than remains, or another currency: 422 refund_exceeds_payment; a payment not succeeded: 409 invalid_state. Concurrent refunds of one payment never together exceed it. The answer is the refund as it stands: succeeded, pending (the provider has not decided or did not answer; reconciled) or canceled (the provider refused it, and its amount is refundable again).
         */
        post: operations["createRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List refunds, newest first
         * @description A page of at most `limit`; `nextCursor` (null on the last page) fetches the next, older one.
         */
        get: operations["listRefunds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/refunds/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a refund */
        get: operations["getRefund"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List customers, newest first
         * @description A page of at most `limit`; `nextCursor` (null on the last page) fetches the next, older one.
         */
        get: operations["listCustomers"];
        put?: never;
        /** Create a customer */
        post: operations["createCustomer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/customers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a customer */
        get: operations["getCustomer"];
        put?: never;
        /**
         * Change a customer
         * @description The fields sent change; null clears one, and the customer must keep an email, a phone or an externalId (else 422). Another customer's externalId: 409 customer_exists naming it. A change is sent as `customer.updated`; asking for what is already so changes nothing and sends no event. An erased customer takes no email, phone or name again (409 invalid_state).
         */
        post: operations["updateCustomer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/customers/{id}/erase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Erase a customer's personal data (152-FZ)
         * @description No body, or `{}`. The customer's email, phone and name become null (`erasedAt` set; `externalId` and `metadata` are kept), and in storage every receipt contact and inline customer contact of its invoices and subscriptions becomes `"erased"`, as does every stored copy of those values in the project's events and stored responses. Payments and refunds stay as they are. Sent as `customer.erased`; erasing an erased customer changes nothing.
         */
        post: operations["eraseCustomer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List events, newest first
         * @description Every event the project's webhooks carry, kept 30 days, each with the body delivered (`type`, `timestamp`, `data`) and its id (the `webhook-id` of its deliveries).
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve an event */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/{id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Queue an event again
         * @description Due now, with a fresh retry schedule: to `endpointId` (any endpoint of the project; a disabled one keeps it until enabled), or without it to every enabled endpoint that takes the event's type. Answers the endpoints it was queued to (none: an empty list). An `endpointId` of no endpoint of the project: 422 validation_failed.
         */
        post: operations["redeliverEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook endpoints, newest first */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Add a webhook endpoint; its secret is shown once
         * @description The URL must pass the outbound guard (https, a public address; no loopback, private or link-local address, no user name): else 422 url_not_allowed with the reason. Every event type unless `events` names some. The answer holds the signing `secret`; a replay with the same Idempotency-Key answers `secret: null` (it is never stored in clear): rotate it if the first answer was lost.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a webhook endpoint (never its secret) */
        get: operations["getWebhookEndpoint"];
        put?: never;
        /**
         * Change a webhook endpoint
         * @description The fields sent change. `enabled: false` stops its deliveries (they wait, due); `enabled: true` starts them again, also after Kopek disabled it for failing. A new `url` passes the outbound guard (422 url_not_allowed).
         */
        post: operations["updateWebhookEndpoint"];
        /**
         * Delete a webhook endpoint with its pending deliveries and log
         * @description No Idempotency-Key (not a POST); a second delete is 404.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an endpoint's signing secret with no downtime
         * @description A new `secret`, shown in this answer only (a replay answers `secret: null`). The old one keeps signing beside it until `previousSecretExpiresAt` (24 hours): every delivery carries both signatures in `webhook-signature`, so a receiver verifying with either accepts it.
         */
        post: operations["rotateWebhookEndpointSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Each attempt to deliver to an endpoint, newest first */
        get: operations["listWebhookEndpointDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: 200 while the process answers */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: 200 when storage answers, else 503 */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "invoice.paid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** An invoice was paid on the payment page */
        post: operations["invoicePaidWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "invoice.expired": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** An unpaid invoice passed expiresAt */
        post: operations["invoiceExpiredWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "invoice.canceled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** An invoice was canceled */
        post: operations["invoiceCanceledWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A subscription was created: its first cycle charged, or pending at the provider (status incomplete) */
        post: operations["subscriptionCreatedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.activated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A subscription's first charge succeeded: an incomplete one's at the provider, or a trial's at trialEnd */
        post: operations["subscriptionActivatedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.renewed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A renewal was charged */
        post: operations["subscriptionRenewedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.past_due": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A renewal was declined for the first time this cycle */
        post: operations["subscriptionPastDueWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.canceled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A subscription was canceled: through the API, when dunning ran out, or when an incomplete one's first charge failed (cancelReason) */
        post: operations["subscriptionCanceledWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A subscription was changed through the API (its amount, period, texts or receipt; a cancel or pause at period end asked or undone); data.previous holds the fields that changed, as they were */
        post: operations["subscriptionUpdatedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.trial_will_end": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A trial ends in 3 days (at once for a shorter one): its first charge is due at trialEnd */
        post: operations["subscriptionTrialWillEndWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.paused": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A pause took effect at the end of the paid period (pauseAt): nothing is charged until it is resumed */
        post: operations["subscriptionPausedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.resumed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A paused subscription was resumed: a new cycle was charged at once and the schedule re-anchored then */
        post: operations["subscriptionResumedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.method_updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The payer saved a new payment method on the method-update page: method and methodMask changed; a past_due subscription is charged for its overdue cycle at once */
        post: operations["subscriptionMethodUpdatedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.canceled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A payment attempt ended without moving money (failureCode says why) */
        post: operations["paymentCanceledWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "refund.succeeded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A refund succeeded at the provider: the payment's amountRefunded includes it */
        post: operations["refundSucceededWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "refund.canceled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The provider refused a refund; the amount it held is refundable again */
        post: operations["refundCanceledWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "customer.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A customer was created */
        post: operations["customerCreatedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "customer.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A customer was changed through the API */
        post: operations["customerUpdatedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "customer.erased": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A customer's personal data was erased (152-FZ): email, phone, name and every receipt contact of theirs */
        post: operations["customerErasedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        CancelSubscriptionRequest: {
            /**
             * @description now (default): it ends at once. period_end: it stays active until nextChargeAt, is not charged then, and becomes canceled (API.md 11.2)
             * @enum {string}
             */
            at?: "now" | "period_end";
        };
        /** @description At least one of email, phone and externalId */
        CreateCustomerRequest: {
            email?: string | null;
            phone?: string | null;
            name?: string | null;
            externalId?: string | null;
            metadata?: components["schemas"]["Metadata"];
        };
        CreateInvoiceRequest: {
            amount: components["schemas"]["Money"];
            method?: components["schemas"]["PaymentMethod"];
            methods?: components["schemas"]["PaymentMethod"][];
            description?: string;
            comment?: string | null;
            customer?: components["schemas"]["CustomerInput"] | null;
            metadata?: components["schemas"]["Metadata"];
            returnUrl?: string | null;
            /** Format: date-time */
            expiresAt?: string;
            /** @description Ask the provider to save the payer's method, so a subscription can be made from the paid invoice; only methods the provider can save are offered. Default false. */
            savePaymentMethod?: boolean;
            receipt?: components["schemas"]["ReceiptInput"] | null;
            /**
             * Format: uuid
             * @description A customer of this project it bills (API.md 11.1); not with customer
             */
            customerId?: string;
        };
        CreateRefundRequest: {
            /** @description At most what remains refundable, in the payment's currency; default: all of it */
            amount?: components["schemas"]["Money"];
            reason?: string;
        };
        CreateSubscriptionRequest: {
            amount: components["schemas"]["Money"];
            period: components["schemas"]["Period"];
            /** @description Required with providerMethodRef; not with invoiceId */
            method?: components["schemas"]["PaymentMethod"];
            /** @description The provider's token for the stored method. Never a card number; never returned. */
            providerMethodRef?: string;
            /**
             * Format: uuid
             * @description A paid invoice of this project whose method was saved (savePaymentMethod), for the same amount: its payment is the first cycle. Instead of method and providerMethodRef.
             */
            invoiceId?: string;
            description?: string;
            metadata?: components["schemas"]["Metadata"];
            receipt?: components["schemas"]["ReceiptInput"] | null;
            /**
             * Format: date-time
             * @description A trial until this moment, 1 hour to 365 days ahead (API.md 11.6): the method is checked and described but not charged; status trialing until the first charge at trialEnd. Not with invoiceId.
             */
            trialEnd?: string;
            /**
             * Format: uuid
             * @description A customer of this project it bills (API.md 11.1); not with invoiceId (the invoice's customer is taken)
             */
            customerId?: string;
        } & ({
            method: unknown;
            providerMethodRef: unknown;
            invoiceId?: never;
        } | {
            invoiceId: unknown;
            method?: never;
            providerMethodRef?: never;
            customerId?: never;
        });
        CreateWebhookEndpointRequest: {
            /**
             * Format: uri
             * @description Where events are POSTed; the outbound guard's rules apply (`url_not_allowed`)
             */
            url: string;
            /** @description The event types it receives; null or absent: every type, those added later too */
            events?: ("invoice.paid" | "invoice.expired" | "invoice.canceled" | "subscription.created" | "subscription.activated" | "subscription.renewed" | "subscription.past_due" | "subscription.canceled" | "subscription.updated" | "subscription.trial_will_end" | "subscription.paused" | "subscription.resumed" | "subscription.method_updated" | "payment.canceled" | "refund.succeeded" | "refund.canceled" | "customer.created" | "customer.updated" | "customer.erased")[] | null;
            description?: string | null;
        };
        Customer: {
            email: string;
            phone: string | null;
            externalId: string | null;
        };
        /** @description A webhook body, signed per Standard Webhooks */
        CustomerEvent: {
            /** @enum {string} */
            type: "customer.created" | "customer.updated" | "customer.erased";
            /** @description When the change happened (not when this attempt was sent) */
            timestamp: components["schemas"]["Timestamp"];
            data: components["schemas"]["CustomerResource"];
        };
        CustomerInput: {
            /** Format: email */
            email: string;
            phone?: string | null;
            externalId?: string | null;
        };
        CustomerList: {
            /** @description The customers, newest first */
            data: components["schemas"]["CustomerResource"][];
            /** @description Pass as `cursor` for the next (older) page; null on the last page. Opaque. */
            nextCursor: string | null;
        };
        CustomerResource: {
            id: components["schemas"]["Id"];
            email: string | null;
            phone: string | null;
            name: string | null;
            /** @description The merchant's own id of the customer, unique per project; kept by an erase */
            externalId: string | null;
            metadata: components["schemas"]["Metadata"];
            createdAt: components["schemas"]["Timestamp"];
            /** @description When its personal data (email, phone, name, receipt contacts) was erased; null while not */
            erasedAt: components["schemas"]["Timestamp"] | null;
        };
        DeletedWebhookEndpoint: {
            id: components["schemas"]["Id"];
            /** @constant */
            deleted: true;
        };
        DeliveryAttempt: {
            id: components["schemas"]["Id"];
            eventId: components["schemas"]["Id"];
            /** @enum {string} */
            eventType: "invoice.paid" | "invoice.expired" | "invoice.canceled" | "subscription.created" | "subscription.activated" | "subscription.renewed" | "subscription.past_due" | "subscription.canceled" | "subscription.updated" | "subscription.trial_will_end" | "subscription.paused" | "subscription.resumed" | "subscription.method_updated" | "payment.canceled" | "refund.succeeded" | "refund.canceled" | "customer.created" | "customer.updated" | "customer.erased";
            endpointId: components["schemas"]["Id"];
            attemptedAt: components["schemas"]["Timestamp"];
            /**
             * @description delivered (a 2xx); retry (failed, tried again later); failed (the last attempt failed)
             * @enum {string}
             */
            outcome: "delivered" | "retry" | "failed";
            /** @description The receiver's status; null when it never answered */
            httpStatus: number | null;
            /** @description Why it failed; null when delivered */
            error: string | null;
            durationMs: number;
        };
        DeliveryAttemptList: {
            /** @description The delivery attempts, newest first */
            data: components["schemas"]["DeliveryAttempt"][];
            /** @description Pass as `cursor` for the next (older) page; null on the last page. Opaque. */
            nextCursor: string | null;
        };
        Event: {
            /** @description The `webhook-id` of every delivery of it */
            id: components["schemas"]["Id"];
            /** @enum {string} */
            type: "invoice.paid" | "invoice.expired" | "invoice.canceled" | "subscription.created" | "subscription.activated" | "subscription.renewed" | "subscription.past_due" | "subscription.canceled" | "subscription.updated" | "subscription.trial_will_end" | "subscription.paused" | "subscription.resumed" | "subscription.method_updated" | "payment.canceled" | "refund.succeeded" | "refund.canceled" | "customer.created" | "customer.updated" | "customer.erased";
            /** @description When the change happened */
            timestamp: components["schemas"]["Timestamp"];
            /** @description The resource as GET showed it then; the body delivered is `{ type, timestamp, data }` */
            data: {
                [key: string]: unknown;
            };
        };
        EventList: {
            /** @description The events, newest first */
            data: components["schemas"]["Event"][];
            /** @description Pass as `cursor` for the next (older) page; null on the last page. Opaque. */
            nextCursor: string | null;
        };
        FieldIssue: {
            /**
             * @description JSON Pointer into the request body as a URI fragment; for a list's query parameters, `#/` and the parameter name (`#/limit`)
             * @example #/customer/email
             */
            pointer: string;
            /** @enum {string} */
            code: "required" | "invalid_type" | "invalid_format" | "too_small" | "too_large" | "too_long" | "invalid_value" | "unknown_field" | "mutually_exclusive" | "unsupported_currency" | "card_number_not_allowed" | "duplicate" | "receipt_total_mismatch" | "invalid_character";
            detail: string;
        };
        HealthStatus: {
            /** @constant */
            status: "ok";
        };
        /**
         * Format: uuid
         * @description A lower-case UUID version 7
         */
        Id: string;
        Invoice: {
            id: components["schemas"]["Id"];
            /** @enum {string} */
            status: "created" | "paid" | "expired" | "canceled";
            amount: components["schemas"]["Money"];
            description: string;
            comment: string | null;
            customer: components["schemas"]["Customer"] | null;
            metadata: components["schemas"]["Metadata"];
            /**
             * Format: uri
             * @description Where the payer pays
             */
            paymentUrl: string;
            returnUrl: string | null;
            /** @description The method used to pay; null until paid */
            method: components["schemas"]["PaymentMethod"] | null;
            pinnedMethod: components["schemas"]["PaymentMethod"] | null;
            createdAt: components["schemas"]["Timestamp"];
            expiresAt: components["schemas"]["Timestamp"];
            paidAt: components["schemas"]["Timestamp"] | null;
            /** @description When it was canceled; null while it is not */
            canceledAt: components["schemas"]["Timestamp"] | null;
            savedMethod: components["schemas"]["SavedMethod"];
            /** @description The 54-FZ receipt sent with its payment; null when none */
            receipt: components["schemas"]["Receipt"] | null;
            /** @description Payment attempts made on the hosted page, all methods (each is a Payment with this invoiceId) */
            attempts: number;
            /** @description How many attempts the hosted page makes for one invoice. Once attempts reaches it and none is pending, the page refuses a new one and says the invoice cannot be paid there; status stays created until it expires or is canceled */
            maxAttempts: number;
            /** @description The project's customer it bills (API.md 11.1); null when none */
            customerId: components["schemas"]["Id"] | null;
        };
        /** @description A webhook body, signed per Standard Webhooks */
        InvoiceEvent: {
            /** @enum {string} */
            type: "invoice.paid" | "invoice.expired" | "invoice.canceled";
            /** @description When the change happened (not when this attempt was sent) */
            timestamp: components["schemas"]["Timestamp"];
            data: components["schemas"]["Invoice"];
        };
        InvoiceList: {
            /** @description The invoices, newest first */
            data: components["schemas"]["Invoice"][];
            /** @description Pass as `cursor` for the next (older) page; null on the last page. Opaque. */
            nextCursor: string | null;
        };
        /** @description Up to 50 string keys (1–40 characters) with string values (≤ 500) */
        Metadata: {
            [key: string]: string;
        };
        MethodUpdateLink: {
            /**
             * Format: uri
             * @description Kopek's page where the payer saves a new method for this subscription: send it to the payer (e-mail, the app). It replaces the subscription's earlier link
             * @example https://pay.example.com/method/0190f3a0-1c2d-7e4f-8a9b-0c1d2e3f4a5b/0190f3a0-2b3c-7d4e-9f0a-1b2c3d4e5f6a/0190f3a1-0a1b-7c2d-8e3f-4a5b6c7d8e9f
             */
            url: string;
            /** @description 24 hours after it was made: the page then takes no new method */
            expiresAt: components["schemas"]["Timestamp"];
        };
        Money: {
            /**
             * @description Whole minor units of the currency, as a string of digits
             * @example 149900
             */
            amount: string;
            /**
             * @description ISO 4217 code the project's provider supports
             * @example RUB
             */
            currency: string;
        };
        Payment: {
            id: components["schemas"]["Id"];
            /**
             * @description pending until the provider's verified word; then succeeded or canceled (final)
             * @enum {string}
             */
            status: "pending" | "succeeded" | "canceled";
            amount: components["schemas"]["Money"];
            /** @description Refunded so far, in the payment's currency; amount "0" when none */
            amountRefunded: {
                amount: string;
                /**
                 * @description ISO 4217 code the project's provider supports
                 * @example RUB
                 */
                currency: string;
            };
            method: components["schemas"]["PaymentMethod"];
            /** @description The masked card or account; null when the provider did not tell */
            methodMask: string | null;
            /** @description The invoice it pays; null for a subscription's charge */
            invoiceId: components["schemas"]["Id"] | null;
            /** @description The subscription it charges; null for an invoice's payment */
            subscriptionId: components["schemas"]["Id"] | null;
            /** @description The subscription cycle it charges (1 = the first); null for an invoice */
            cycle: number | null;
            /**
             * @description cycle: a subscription's charge of a cycle; invoice: an invoice's payment; proration: the prorated difference of a price raised mid-cycle (11.3); verification: a charge proving a new method, refunded at once (11.5)
             * @enum {string}
             */
            kind: "cycle" | "invoice" | "proration" | "verification";
            /** @description The provider kind that moves it, e.g. sandbox */
            provider: string;
            /** @description The provider's id; null while unknown */
            providerPaymentId: string | null;
            /** @description Why it was canceled; null otherwise */
            failureCode: ("payment_declined" | "expired" | "canceled_by_payer" | "provider_error") | null;
            createdAt: components["schemas"]["Timestamp"];
            succeededAt: components["schemas"]["Timestamp"] | null;
            canceledAt: components["schemas"]["Timestamp"] | null;
            /** @description The customer of its invoice or subscription (API.md 11.1); null when none */
            customerId: components["schemas"]["Id"] | null;
        };
        /** @description A webhook body, signed per Standard Webhooks */
        PaymentEvent: {
            /** @enum {string} */
            type: "payment.canceled";
            /** @description When the change happened (not when this attempt was sent) */
            timestamp: components["schemas"]["Timestamp"];
            data: components["schemas"]["Payment"];
        };
        PaymentList: {
            /** @description The payments, newest first */
            data: components["schemas"]["Payment"][];
            /** @description Pass as `cursor` for the next (older) page; null on the last page. Opaque. */
            nextCursor: string | null;
        };
        /** @enum {string} */
        PaymentMethod: "card" | "sbp";
        Period: {
            /** @enum {string} */
            unit: "day" | "week" | "month" | "year";
            count: number;
        };
        /** @description An RFC 9457 problem document */
        Problem: {
            /**
             * @description URI of the problem type, ending in the code
             * @example urn:kopek:problem:validation_failed
             */
            type: string;
            title: string;
            status: number;
            /**
             * @description The stable machine-readable value clients switch on
             * @enum {string}
             */
            code: "invalid_json" | "bad_request" | "request_timeout" | "headers_too_large" | "idempotency_key_missing" | "idempotency_key_invalid" | "unauthorized" | "payment_declined" | "not_found" | "method_not_allowed" | "idempotency_request_in_progress" | "invalid_state" | "payload_too_large" | "unsupported_media_type" | "validation_failed" | "idempotency_key_reused" | "method_unavailable" | "refund_exceeds_payment" | "invoice_not_usable" | "invoice_already_used" | "customer_exists" | "customer_not_found" | "url_not_allowed" | "rate_limited" | "internal_error" | "provider_error" | "provider_unavailable" | "storage_unavailable";
            detail: string;
            requestId: string;
            /** @description Present on validation_failed only */
            errors?: components["schemas"]["FieldIssue"][];
        };
        /** @description The 54-FZ receipt sent with every charge it covers (API.md 10.7) */
        Receipt: {
            customer: components["schemas"]["ReceiptCustomer"];
            /** @description 1–6; null: the provider's default */
            taxSystemCode: number | null;
            items: components["schemas"]["ReceiptItem"][];
        };
        /** @description Where the receipt is sent; at least one is set */
        ReceiptCustomer: {
            email: string | null;
            phone: string | null;
        };
        /** @description Where the receipt is sent: an email, a phone, or both */
        ReceiptCustomerInput: {
            email?: string | null;
            phone?: string | null;
        };
        /** @description A 54-FZ fiscal receipt, sent to the provider with every charge it covers. The items (quantity × unit amount) must add up to the amount exactly. */
        ReceiptInput: {
            customer: components["schemas"]["ReceiptCustomerInput"];
            taxSystemCode?: number | null;
            items: components["schemas"]["ReceiptItemInput"][];
        };
        ReceiptItem: {
            description: string;
            /** @example 1.5 */
            quantity: string;
            amount: components["schemas"]["Money"];
            vatCode: number;
            /** @enum {string} */
            paymentSubject: "commodity" | "excise" | "job" | "service" | "gambling_bet" | "gambling_prize" | "lottery" | "lottery_prize" | "intellectual_activity" | "payment" | "agent_commission" | "property_right" | "non_operating_gain" | "insurance_premium" | "sales_tax" | "resort_fee" | "composite" | "another" | "fine" | "tax" | "lien" | "cost" | "pension_insurance_without_payouts" | "pension_insurance_with_payouts" | "health_insurance_without_payouts" | "health_insurance_with_payouts" | "health_insurance" | "casino" | "agent_withdrawals" | "non_marked_excise" | "marked_excise" | "marked" | "non_marked";
            /** @enum {string} */
            paymentMode: "full_prepayment" | "partial_prepayment" | "advance" | "full_payment" | "partial_payment" | "credit" | "credit_payment";
        };
        ReceiptItemInput: {
            description: string;
            /**
             * @description How many units, a decimal string > 0 with at most 3 decimals
             * @example 1.5
             */
            quantity: string;
            amount: components["schemas"]["Money"];
            vatCode: number;
            /** @enum {string} */
            paymentSubject: "commodity" | "excise" | "job" | "service" | "gambling_bet" | "gambling_prize" | "lottery" | "lottery_prize" | "intellectual_activity" | "payment" | "agent_commission" | "property_right" | "non_operating_gain" | "insurance_premium" | "sales_tax" | "resort_fee" | "composite" | "another" | "fine" | "tax" | "lien" | "cost" | "pension_insurance_without_payouts" | "pension_insurance_with_payouts" | "health_insurance_without_payouts" | "health_insurance_with_payouts" | "health_insurance" | "casino" | "agent_withdrawals" | "non_marked_excise" | "marked_excise" | "marked" | "non_marked";
            /** @enum {string} */
            paymentMode: "full_prepayment" | "partial_prepayment" | "advance" | "full_payment" | "partial_payment" | "credit" | "credit_payment";
        };
        RedeliverEventRequest: {
            /** @description Only this endpoint (any of the project's); absent: every enabled endpoint the event's type goes to */
            endpointId?: components["schemas"]["Id"];
        };
        Redelivery: {
            eventId: components["schemas"]["Id"];
            /** @description The endpoints it was queued to, due now */
            endpointIds: components["schemas"]["Id"][];
        };
        Refund: {
            id: components["schemas"]["Id"];
            /** @description The payment it refunds */
            paymentId: components["schemas"]["Id"];
            /**
             * @description pending until the provider decides (reconciled like payments); succeeded, or canceled when the provider refused it
             * @enum {string}
             */
            status: "pending" | "succeeded" | "canceled";
            amount: components["schemas"]["Money"];
            /** @description As requested; null when none was given */
            reason: string | null;
            createdAt: components["schemas"]["Timestamp"];
            succeededAt: components["schemas"]["Timestamp"] | null;
        };
        /** @description A webhook body, signed per Standard Webhooks */
        RefundEvent: {
            /** @enum {string} */
            type: "refund.succeeded" | "refund.canceled";
            /** @description When the change happened (not when this attempt was sent) */
            timestamp: components["schemas"]["Timestamp"];
            data: components["schemas"]["Refund"];
        };
        RefundList: {
            /** @description The refunds, newest first */
            data: components["schemas"]["Refund"][];
            /** @description Pass as `cursor` for the next (older) page; null on the last page. Opaque. */
            nextCursor: string | null;
        };
        /** @description The payer's method the provider saved when the invoice was paid (savePaymentMethod): a subscription can be created from the invoice. Null otherwise. The provider's token is never shown. */
        SavedMethod: {
            method: components["schemas"]["PaymentMethod"];
            /** @description The masked card or account; null when the provider did not tell */
            methodMask: string | null;
        } | null;
        Subscription: {
            id: components["schemas"]["Id"];
            /** @enum {string} */
            status: "incomplete" | "trialing" | "active" | "past_due" | "paused" | "canceled";
            amount: components["schemas"]["Money"];
            period: components["schemas"]["Period"];
            description: string;
            method: components["schemas"]["PaymentMethod"];
            /** @example 2200 70** **** 1234 */
            methodMask: string;
            metadata: components["schemas"]["Metadata"];
            startedAt: components["schemas"]["Timestamp"];
            nextChargeAt: components["schemas"]["Timestamp"];
            lastChargedAt: components["schemas"]["Timestamp"] | null;
            /** @description Cycles charged; 0 while incomplete or trialing */
            cyclesStarted: number;
            createdAt: components["schemas"]["Timestamp"];
            /** @description When it was canceled; null while it is not */
            canceledAt: components["schemas"]["Timestamp"] | null;
            /** @description requested (canceled through the API) or payment_failed (dunning ran out); null while not canceled */
            cancelReason: ("requested" | "payment_failed") | null;
            /** @description When a cancel at the end of the paid period takes effect (the nextChargeAt it was asked at): no charge is made then and the subscription becomes canceled; null when none is scheduled */
            cancelAt: components["schemas"]["Timestamp"] | null;
            /** @description When its trial ends and its first charge is due (API.md 11.6); null without a trial */
            trialEnd: components["schemas"]["Timestamp"] | null;
            /** @description Whether it is (or was) canceled at the end of a paid period: cancelAt is set */
            cancelAtPeriodEnd: boolean;
            /** @description When a pause takes effect (the nextChargeAt it was asked at, API.md 11.4): no charge is made then and the subscription becomes paused; kept while paused; null when none is scheduled or once resumed */
            pauseAt: components["schemas"]["Timestamp"] | null;
            /** @description The 54-FZ receipt sent with every cycle's charge; null when none */
            receipt: components["schemas"]["Receipt"] | null;
            /** @description The project's customer it bills (API.md 11.1); null when none */
            customerId: components["schemas"]["Id"] | null;
        };
        /** @description A webhook body, signed per Standard Webhooks */
        SubscriptionEvent: {
            /** @enum {string} */
            type: "subscription.created" | "subscription.activated" | "subscription.renewed" | "subscription.past_due" | "subscription.canceled" | "subscription.updated" | "subscription.trial_will_end" | "subscription.paused" | "subscription.resumed" | "subscription.method_updated";
            /** @description When the change happened (not when this attempt was sent) */
            timestamp: components["schemas"]["Timestamp"];
            data: components["schemas"]["SubscriptionEventData"];
        };
        SubscriptionEventData: {
            id: components["schemas"]["Id"];
            /** @enum {string} */
            status: "incomplete" | "trialing" | "active" | "past_due" | "paused" | "canceled";
            amount: components["schemas"]["Money"];
            period: components["schemas"]["Period"];
            description: string;
            method: components["schemas"]["PaymentMethod"];
            /** @example 2200 70** **** 1234 */
            methodMask: string;
            metadata: components["schemas"]["Metadata"];
            startedAt: components["schemas"]["Timestamp"];
            nextChargeAt: components["schemas"]["Timestamp"];
            lastChargedAt: components["schemas"]["Timestamp"] | null;
            /** @description Cycles charged; 0 while incomplete or trialing */
            cyclesStarted: number;
            createdAt: components["schemas"]["Timestamp"];
            /** @description When it was canceled; null while it is not */
            canceledAt: components["schemas"]["Timestamp"] | null;
            /** @description requested (canceled through the API) or payment_failed (dunning ran out); null while not canceled */
            cancelReason: ("requested" | "payment_failed") | null;
            /** @description When a cancel at the end of the paid period takes effect (the nextChargeAt it was asked at): no charge is made then and the subscription becomes canceled; null when none is scheduled */
            cancelAt: components["schemas"]["Timestamp"] | null;
            /** @description When its trial ends and its first charge is due (API.md 11.6); null without a trial */
            trialEnd: components["schemas"]["Timestamp"] | null;
            /** @description Whether it is (or was) canceled at the end of a paid period: cancelAt is set */
            cancelAtPeriodEnd: boolean;
            /** @description When a pause takes effect (the nextChargeAt it was asked at, API.md 11.4): no charge is made then and the subscription becomes paused; kept while paused; null when none is scheduled or once resumed */
            pauseAt: components["schemas"]["Timestamp"] | null;
            /** @description The 54-FZ receipt sent with every cycle's charge; null when none */
            receipt: components["schemas"]["Receipt"] | null;
            /** @description The project's customer it bills (API.md 11.1); null when none */
            customerId: components["schemas"]["Id"] | null;
            /** @description subscription.updated only: each field that changed, with the value it had before (API.md 11.3) */
            previous?: {
                id?: components["schemas"]["Id"];
                /** @enum {string} */
                status?: "incomplete" | "trialing" | "active" | "past_due" | "paused" | "canceled";
                amount?: components["schemas"]["Money"];
                period?: components["schemas"]["Period"];
                description?: string;
                method?: components["schemas"]["PaymentMethod"];
                /** @example 2200 70** **** 1234 */
                methodMask?: string;
                metadata?: components["schemas"]["Metadata"];
                startedAt?: components["schemas"]["Timestamp"];
                nextChargeAt?: components["schemas"]["Timestamp"];
                lastChargedAt?: components["schemas"]["Timestamp"] | null;
                /** @description Cycles charged; 0 while incomplete or trialing */
                cyclesStarted?: number;
                createdAt?: components["schemas"]["Timestamp"];
                /** @description When it was canceled; null while it is not */
                canceledAt?: components["schemas"]["Timestamp"] | null;
                /** @description requested (canceled through the API) or payment_failed (dunning ran out); null while not canceled */
                cancelReason?: ("requested" | "payment_failed") | null;
                /** @description When a cancel at the end of the paid period takes effect (the nextChargeAt it was asked at): no charge is made then and the subscription becomes canceled; null when none is scheduled */
                cancelAt?: components["schemas"]["Timestamp"] | null;
                /** @description When its trial ends and its first charge is due (API.md 11.6); null without a trial */
                trialEnd?: components["schemas"]["Timestamp"] | null;
                /** @description Whether it is (or was) canceled at the end of a paid period: cancelAt is set */
                cancelAtPeriodEnd?: boolean;
                /** @description When a pause takes effect (the nextChargeAt it was asked at, API.md 11.4): no charge is made then and the subscription becomes paused; kept while paused; null when none is scheduled or once resumed */
                pauseAt?: components["schemas"]["Timestamp"] | null;
                /** @description The 54-FZ receipt sent with every cycle's charge; null when none */
                receipt?: components["schemas"]["Receipt"] | null;
                /** @description The project's customer it bills (API.md 11.1); null when none */
                customerId?: components["schemas"]["Id"] | null;
            };
        };
        SubscriptionList: {
            /** @description The subscriptions, newest first */
            data: components["schemas"]["Subscription"][];
            /** @description Pass as `cursor` for the next (older) page; null on the last page. Opaque. */
            nextCursor: string | null;
        };
        /**
         * Format: date-time
         * @description ISO 8601 UTC with millisecond precision
         * @example 2026-11-22T09:30:00.000Z
         */
        Timestamp: string;
        /** @description The fields to change; null clears one. The customer must keep at least one of email, phone and externalId */
        UpdateCustomerRequest: components["schemas"]["CreateCustomerRequest"];
        UpdateSubscriptionRequest: {
            /** @description The price from the next cycle on (API.md 11.3), in the subscription's currency; only an active subscription's */
            amount?: components["schemas"]["Money"];
            /** @description The period from the next cycle on: the schedule re-anchors at nextChargeAt */
            period?: components["schemas"]["Period"];
            description?: string;
            /** @description Replaces the metadata as a whole */
            metadata?: components["schemas"]["Metadata"];
            /** @description The receipt of every later charge; its items must add up to the (new) amount. null: no receipts from now on */
            receipt?: components["schemas"]["ReceiptInput"] | null;
            /**
             * @description charge_now: with a higher amount and the same period, the difference for the rest of the current cycle is charged at once from the saved method, rounded down (a Payment of kind proration); none (the default): nothing is charged now
             * @enum {string}
             */
            proration?: "none" | "charge_now";
            /** @description true: cancel at the end of the paid period (as cancel with at: period_end); false: undo such a cancel before it takes effect */
            cancelAtPeriodEnd?: boolean;
        };
        /** @description The fields sent change; at least one */
        UpdateWebhookEndpointRequest: {
            /**
             * Format: uri
             * @description Where events are POSTed; the outbound guard's rules apply (`url_not_allowed`)
             */
            url?: string;
            /** @description The event types it receives; null or absent: every type, those added later too */
            events?: ("invoice.paid" | "invoice.expired" | "invoice.canceled" | "subscription.created" | "subscription.activated" | "subscription.renewed" | "subscription.past_due" | "subscription.canceled" | "subscription.updated" | "subscription.trial_will_end" | "subscription.paused" | "subscription.resumed" | "subscription.method_updated" | "payment.canceled" | "refund.succeeded" | "refund.canceled" | "customer.created" | "customer.updated" | "customer.erased")[] | null;
            description?: string | null;
            /** @description false stops deliveries (they wait); true starts them again, also after the dispatcher disabled it */
            enabled?: boolean;
        };
        /** @description Never carries a secret */
        WebhookEndpoint: {
            id: components["schemas"]["Id"];
            url: string;
            /** @description null: every type */
            events: ("invoice.paid" | "invoice.expired" | "invoice.canceled" | "subscription.created" | "subscription.activated" | "subscription.renewed" | "subscription.past_due" | "subscription.canceled" | "subscription.updated" | "subscription.trial_will_end" | "subscription.paused" | "subscription.resumed" | "subscription.method_updated" | "payment.canceled" | "refund.succeeded" | "refund.canceled" | "customer.created" | "customer.updated" | "customer.erased")[] | null;
            description: string | null;
            enabled: boolean;
            disabledAt: components["schemas"]["Timestamp"] | null;
            /** @description Why it stopped: through the API, or every attempt of a delivery failed */
            disabledReason: string | null;
            /** @description The last 2xx any delivery to it got */
            lastSuccessAt: components["schemas"]["Timestamp"] | null;
            /** @description Until then the secret a rotation replaced signs beside the new one; null when none does */
            previousSecretExpiresAt: components["schemas"]["Timestamp"] | null;
            createdAt: components["schemas"]["Timestamp"];
        };
        WebhookEndpointList: {
            /** @description The webhook endpoints, newest first */
            data: components["schemas"]["WebhookEndpoint"][];
            /** @description Pass as `cursor` for the next (older) page; null on the last page. Opaque. */
            nextCursor: string | null;
        };
        WebhookEndpointWithSecret: {
            id: components["schemas"]["Id"];
            url: string;
            /** @description null: every type */
            events: ("invoice.paid" | "invoice.expired" | "invoice.canceled" | "subscription.created" | "subscription.activated" | "subscription.renewed" | "subscription.past_due" | "subscription.canceled" | "subscription.updated" | "subscription.trial_will_end" | "subscription.paused" | "subscription.resumed" | "subscription.method_updated" | "payment.canceled" | "refund.succeeded" | "refund.canceled" | "customer.created" | "customer.updated" | "customer.erased")[] | null;
            description: string | null;
            enabled: boolean;
            disabledAt: components["schemas"]["Timestamp"] | null;
            /** @description Why it stopped: through the API, or every attempt of a delivery failed */
            disabledReason: string | null;
            /** @description The last 2xx any delivery to it got */
            lastSuccessAt: components["schemas"]["Timestamp"] | null;
            /** @description Until then the secret a rotation replaced signs beside the new one; null when none does */
            previousSecretExpiresAt: components["schemas"]["Timestamp"] | null;
            createdAt: components["schemas"]["Timestamp"];
            /** @description The signing secret (`whsec_…`), shown only in this answer; null in an idempotent replay (it is not stored with the key) */
            secret: string | null;
        };
    };
    responses: never;
    parameters: {
        /** @description Makes the POST safe to retry: 1–255 printable ASCII characters, remembered for 24 hours per project. The same key with the same body replays the first answer; with another body it is refused. HTTP drops spaces around a header's value, so a key cannot start or end with one (a key of only spaces arrives empty: 400 idempotency_key_invalid). */
        "Idempotency-Key": string;
        /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
        "X-Request-Id": string;
        /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
        ResourceId: string;
        /** @description How many to return. Out of range: 422 validation_failed with pointer `#/limit`. */
        Limit: number;
        /** @description The `nextCursor` of the previous page, as returned: opaque. Pages are stable while new resources arrive (nothing repeated or skipped). Anything else: 422 with pointer `#/cursor`. */
        Cursor: string;
        /** @description Only invoices in this status, as read now (an unpaid invoice past expiresAt is expired). Another value: 422 with pointer `#/status`. */
        InvoiceStatus: "created" | "paid" | "expired" | "canceled";
        /** @description Only the payments of this invoice. Not a UUID: 422 with pointer `#/invoiceId`. */
        PaymentInvoiceId: string;
        /** @description Only the charges of this subscription. Not a UUID: 422 with pointer `#/subscriptionId`. */
        PaymentSubscriptionId: string;
        /** @description Only payments in this status. Another value: 422 with pointer `#/status`. */
        PaymentStatus: "pending" | "succeeded" | "canceled";
        /** @description Only the refunds of this payment. Not a UUID: 422 with pointer `#/paymentId`. */
        RefundPaymentId: string;
        /** @description Only refunds in this status. Another value: 422 with pointer `#/status`. */
        RefundStatus: "pending" | "succeeded" | "canceled";
        /** @description Only those of this customer (API.md 11.1). Not a UUID: 422 with pointer `#/customerId`. */
        CustomerId: string;
        /** @description Only the customer with this externalId (exactly). Empty or over 255 characters: 422. */
        CustomerExternalId: string;
        /** @description Only customers with this email (exactly, case included). Empty or over 255 characters: 422. */
        CustomerEmail: string;
        /** @description Only events of this type. Another value: 422 with pointer `#/type`. */
        EventType: "invoice.paid" | "invoice.expired" | "invoice.canceled" | "subscription.created" | "subscription.activated" | "subscription.renewed" | "subscription.past_due" | "subscription.canceled" | "subscription.updated" | "subscription.trial_will_end" | "subscription.paused" | "subscription.resumed" | "subscription.method_updated" | "payment.canceled" | "refund.succeeded" | "refund.canceled" | "customer.created" | "customer.updated" | "customer.erased";
        /** @description Only events recorded at or after this ISO 8601 moment. Malformed: 422 with pointer `#/since`. */
        EventSince: string;
        /** @description Only attempts with this outcome. Another value: 422 with pointer `#/status`. */
        DeliveryOutcome: "delivered" | "retry" | "failed";
        /** @description The event's id (a UUIDv7), the same on every retry: deduplicate on it. */
        "webhook-id": string;
        /** @description Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance). */
        "webhook-timestamp": string;
        /** @description v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint's whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core). */
        "webhook-signature": string;
    };
    requestBodies: never;
    headers: {
        /** @description The request's id: the one sent when it was sane, else a new one */
        "X-Request-Id": string;
        /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key */
        "Idempotent-Replayed": "true";
        /** @description Path of the created resource */
        Location: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listSubscriptions: {
        parameters: {
            query?: {
                /** @description How many to return. Out of range: 422 validation_failed with pointer `#/limit`. */
                limit?: components["parameters"]["Limit"];
                /** @description The `nextCursor` of the previous page, as returned: opaque. Pages are stable while new resources arrive (nothing repeated or skipped). Anything else: 422 with pointer `#/cursor`. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Only those of this customer (API.md 11.1). Not a UUID: 422 with pointer `#/customerId`. */
                customerId?: components["parameters"]["CustomerId"];
            };
            header?: {
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionList"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createSubscription: {
        parameters: {
            query?: never;
            header: {
                /** @description Makes the POST safe to retry: 1–255 printable ASCII characters, remembered for 24 hours per project. The same key with the same body replays the first answer; with another body it is refused. HTTP drops spaces around a header's value, so a key cannot start or end with one (a key of only spaces arrives empty: 400 idempotency_key_invalid). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSubscriptionRequest"];
            };
        };
        responses: {
            /** @description A replay: the stored answer to the first request with this Idempotency-Key */
            200: {
                headers: {
                    /** @description Always `true` here */
                    "Idempotent-Replayed": "true";
                    Location: components["headers"]["Location"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Created; `Location` is /v1/subscriptions/{id} */
            201: {
                headers: {
                    Location: components["headers"]["Location"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description `invalid_json`, `bad_request`, `idempotency_key_missing`, `idempotency_key_invalid` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payment_declined` */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout` */
            408: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_request_in_progress`, `invoice_already_used` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed`, `idempotency_key_reused`, `method_unavailable`, `url_not_allowed`, `invoice_not_usable`, `customer_not_found` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large` */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `provider_error` */
            502: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `provider_unavailable`, `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateSubscription: {
        parameters: {
            query?: never;
            header: {
                /** @description Makes the POST safe to retry: 1–255 printable ASCII characters, remembered for 24 hours per project. The same key with the same body replays the first answer; with another body it is refused. HTTP drops spaces around a header's value, so a key cannot start or end with one (a key of only spaces arrives empty: 400 idempotency_key_invalid). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateSubscriptionRequest"];
            };
        };
        responses: {
            /** @description Done; a replay of the first request with this Idempotency-Key answers the same */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description `invalid_json`, `bad_request`, `idempotency_key_missing`, `idempotency_key_invalid` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payment_declined` */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout` */
            408: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_request_in_progress`, `invalid_state` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: string;
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed`, `idempotency_key_reused`, `url_not_allowed`, `method_unavailable` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large` */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `provider_error` */
            502: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable`, `provider_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    cancelSubscription: {
        parameters: {
            query?: never;
            header: {
                /** @description Makes the POST safe to retry: 1–255 printable ASCII characters, remembered for 24 hours per project. The same key with the same body replays the first answer; with another body it is refused. HTTP drops spaces around a header's value, so a key cannot start or end with one (a key of only spaces arrives empty: 400 idempotency_key_invalid). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CancelSubscriptionRequest"];
            };
        };
        responses: {
            /** @description Done; a replay of the first request with this Idempotency-Key answers the same */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description `invalid_json`, `bad_request`, `idempotency_key_missing`, `idempotency_key_invalid` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout` */
            408: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_request_in_progress`, `invalid_state` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: string;
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed`, `idempotency_key_reused`, `url_not_allowed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large` */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    pauseSubscription: {
        parameters: {
            query?: never;
            header: {
                /** @description Makes the POST safe to retry: 1–255 printable ASCII characters, remembered for 24 hours per project. The same key with the same body replays the first answer; with another body it is refused. HTTP drops spaces around a header's value, so a key cannot start or end with one (a key of only spaces arrives empty: 400 idempotency_key_invalid). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        /** @description No body, an empty one, or `{}`: the operation takes no fields */
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Done; a replay of the first request with this Idempotency-Key answers the same */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description `invalid_json`, `bad_request`, `idempotency_key_missing`, `idempotency_key_invalid` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout` */
            408: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_request_in_progress`, `invalid_state` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: string;
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed`, `idempotency_key_reused`, `url_not_allowed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large` */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    resumeSubscription: {
        parameters: {
            query?: never;
            header: {
                /** @description Makes the POST safe to retry: 1–255 printable ASCII characters, remembered for 24 hours per project. The same key with the same body replays the first answer; with another body it is refused. HTTP drops spaces around a header's value, so a key cannot start or end with one (a key of only spaces arrives empty: 400 idempotency_key_invalid). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        /** @description No body, an empty one, or `{}`: the operation takes no fields */
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Done; a replay of the first request with this Idempotency-Key answers the same */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description `invalid_json`, `bad_request`, `idempotency_key_missing`, `idempotency_key_invalid` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payment_declined` */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout` */
            408: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_request_in_progress`, `invalid_state` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: string;
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed`, `idempotency_key_reused`, `url_not_allowed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large` */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `provider_error` */
            502: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable`, `provider_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createSubscriptionMethodUpdate: {
        parameters: {
            query?: never;
            header: {
                /** @description Makes the POST safe to retry: 1–255 printable ASCII characters, remembered for 24 hours per project. The same key with the same body replays the first answer; with another body it is refused. HTTP drops spaces around a header's value, so a key cannot start or end with one (a key of only spaces arrives empty: 400 idempotency_key_invalid). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        /** @description No body, an empty one, or `{}`: the operation takes no fields */
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Done; a replay of the first request with this Idempotency-Key answers the same */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodUpdateLink"];
                };
            };
            /** @description `invalid_json`, `bad_request`, `idempotency_key_missing`, `idempotency_key_invalid` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout` */
            408: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_request_in_progress`, `invalid_state` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: string;
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed`, `idempotency_key_reused`, `url_not_allowed`, `method_unavailable` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large` */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listInvoices: {
        parameters: {
            query?: {
                /** @description How many to return. Out of range: 422 validation_failed with pointer `#/limit`. */
                limit?: components["parameters"]["Limit"];
                /** @description The `nextCursor` of the previous page, as returned: opaque. Pages are stable while new resources arrive (nothing repeated or skipped). Anything else: 422 with pointer `#/cursor`. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Only invoices in this status, as read now (an unpaid invoice past expiresAt is expired). Another value: 422 with pointer `#/status`. */
                status?: components["parameters"]["InvoiceStatus"];
                /** @description Only those of this customer (API.md 11.1). Not a UUID: 422 with pointer `#/customerId`. */
                customerId?: components["parameters"]["CustomerId"];
            };
            header?: {
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvoiceList"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createInvoice: {
        parameters: {
            query?: never;
            header: {
                /** @description Makes the POST safe to retry: 1–255 printable ASCII characters, remembered for 24 hours per project. The same key with the same body replays the first answer; with another body it is refused. HTTP drops spaces around a header's value, so a key cannot start or end with one (a key of only spaces arrives empty: 400 idempotency_key_invalid). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateInvoiceRequest"];
            };
        };
        responses: {
            /** @description A replay: the stored answer to the first request with this Idempotency-Key */
            200: {
                headers: {
                    /** @description Always `true` here */
                    "Idempotent-Replayed": "true";
                    Location: components["headers"]["Location"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Created; `Location` is /v1/invoices/{id} */
            201: {
                headers: {
                    Location: components["headers"]["Location"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description `invalid_json`, `bad_request`, `idempotency_key_missing`, `idempotency_key_invalid` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout` */
            408: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_request_in_progress` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed`, `idempotency_key_reused`, `method_unavailable`, `url_not_allowed`, `customer_not_found` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large` */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `provider_error` */
            502: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `provider_unavailable`, `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getInvoice: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    cancelInvoice: {
        parameters: {
            query?: never;
            header: {
                /** @description Makes the POST safe to retry: 1–255 printable ASCII characters, remembered for 24 hours per project. The same key with the same body replays the first answer; with another body it is refused. HTTP drops spaces around a header's value, so a key cannot start or end with one (a key of only spaces arrives empty: 400 idempotency_key_invalid). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        /** @description No body, an empty one, or `{}`: the operation takes no fields */
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Done; a replay of the first request with this Idempotency-Key answers the same */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description `invalid_json`, `bad_request`, `idempotency_key_missing`, `idempotency_key_invalid` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout` */
            408: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_request_in_progress`, `invalid_state` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: string;
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed`, `idempotency_key_reused`, `url_not_allowed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large` */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listPayments: {
        parameters: {
            query?: {
                /** @description How many to return. Out of range: 422 validation_failed with pointer `#/limit`. */
                limit?: components["parameters"]["Limit"];
                /** @description The `nextCursor` of the previous page, as returned: opaque. Pages are stable while new resources arrive (nothing repeated or skipped). Anything else: 422 with pointer `#/cursor`. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Only the payments of this invoice. Not a UUID: 422 with pointer `#/invoiceId`. */
                invoiceId?: components["parameters"]["PaymentInvoiceId"];
                /** @description Only the charges of this subscription. Not a UUID: 422 with pointer `#/subscriptionId`. */
                subscriptionId?: components["parameters"]["PaymentSubscriptionId"];
                /** @description Only payments in this status. Another value: 422 with pointer `#/status`. */
                status?: components["parameters"]["PaymentStatus"];
                /** @description Only those of this customer (API.md 11.1). Not a UUID: 422 with pointer `#/customerId`. */
                customerId?: components["parameters"]["CustomerId"];
            };
            header?: {
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentList"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getPayment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createRefund: {
        parameters: {
            query?: never;
            header: {
                /** @description Makes the POST safe to retry: 1–255 printable ASCII characters, remembered for 24 hours per project. The same key with the same body replays the first answer; with another body it is refused. HTTP drops spaces around a header's value, so a key cannot start or end with one (a key of only spaces arrives empty: 400 idempotency_key_invalid). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreateRefundRequest"];
            };
        };
        responses: {
            /** @description A replay: the stored answer to the first request with this Idempotency-Key */
            200: {
                headers: {
                    /** @description Always `true` here */
                    "Idempotent-Replayed": "true";
                    Location: components["headers"]["Location"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /** @description Created; `Location` is /v1/refunds/{id} */
            201: {
                headers: {
                    Location: components["headers"]["Location"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /** @description `invalid_json`, `bad_request`, `idempotency_key_missing`, `idempotency_key_invalid` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout` */
            408: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_request_in_progress`, `invalid_state` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: string;
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed`, `idempotency_key_reused`, `url_not_allowed`, `refund_exceeds_payment` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large` */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listRefunds: {
        parameters: {
            query?: {
                /** @description How many to return. Out of range: 422 validation_failed with pointer `#/limit`. */
                limit?: components["parameters"]["Limit"];
                /** @description The `nextCursor` of the previous page, as returned: opaque. Pages are stable while new resources arrive (nothing repeated or skipped). Anything else: 422 with pointer `#/cursor`. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Only the refunds of this payment. Not a UUID: 422 with pointer `#/paymentId`. */
                paymentId?: components["parameters"]["RefundPaymentId"];
                /** @description Only refunds in this status. Another value: 422 with pointer `#/status`. */
                status?: components["parameters"]["RefundStatus"];
            };
            header?: {
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefundList"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getRefund: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listCustomers: {
        parameters: {
            query?: {
                /** @description How many to return. Out of range: 422 validation_failed with pointer `#/limit`. */
                limit?: components["parameters"]["Limit"];
                /** @description The `nextCursor` of the previous page, as returned: opaque. Pages are stable while new resources arrive (nothing repeated or skipped). Anything else: 422 with pointer `#/cursor`. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Only the customer with this externalId (exactly). Empty or over 255 characters: 422. */
                externalId?: components["parameters"]["CustomerExternalId"];
                /** @description Only customers with this email (exactly, case included). Empty or over 255 characters: 422. */
                email?: components["parameters"]["CustomerEmail"];
            };
            header?: {
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerList"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createCustomer: {
        parameters: {
            query?: never;
            header: {
                /** @description Makes the POST safe to retry: 1–255 printable ASCII characters, remembered for 24 hours per project. The same key with the same body replays the first answer; with another body it is refused. HTTP drops spaces around a header's value, so a key cannot start or end with one (a key of only spaces arrives empty: 400 idempotency_key_invalid). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCustomerRequest"];
            };
        };
        responses: {
            /** @description A replay: the stored answer to the first request with this Idempotency-Key */
            200: {
                headers: {
                    /** @description Always `true` here */
                    "Idempotent-Replayed": "true";
                    Location: components["headers"]["Location"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerResource"];
                };
            };
            /** @description Created; `Location` is /v1/customers/{id} */
            201: {
                headers: {
                    Location: components["headers"]["Location"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerResource"];
                };
            };
            /** @description `invalid_json`, `bad_request`, `idempotency_key_missing`, `idempotency_key_invalid` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout` */
            408: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_request_in_progress`, `customer_exists` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed`, `idempotency_key_reused`, `method_unavailable`, `url_not_allowed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large` */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `provider_error` */
            502: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `provider_unavailable`, `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCustomer: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerResource"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateCustomer: {
        parameters: {
            query?: never;
            header: {
                /** @description Makes the POST safe to retry: 1–255 printable ASCII characters, remembered for 24 hours per project. The same key with the same body replays the first answer; with another body it is refused. HTTP drops spaces around a header's value, so a key cannot start or end with one (a key of only spaces arrives empty: 400 idempotency_key_invalid). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateCustomerRequest"];
            };
        };
        responses: {
            /** @description Done; a replay of the first request with this Idempotency-Key answers the same */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerResource"];
                };
            };
            /** @description `invalid_json`, `bad_request`, `idempotency_key_missing`, `idempotency_key_invalid` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout` */
            408: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_request_in_progress`, `invalid_state`, `customer_exists` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: string;
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed`, `idempotency_key_reused`, `url_not_allowed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large` */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    eraseCustomer: {
        parameters: {
            query?: never;
            header: {
                /** @description Makes the POST safe to retry: 1–255 printable ASCII characters, remembered for 24 hours per project. The same key with the same body replays the first answer; with another body it is refused. HTTP drops spaces around a header's value, so a key cannot start or end with one (a key of only spaces arrives empty: 400 idempotency_key_invalid). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        /** @description No body, an empty one, or `{}`: the operation takes no fields */
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Done; a replay of the first request with this Idempotency-Key answers the same */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerResource"];
                };
            };
            /** @description `invalid_json`, `bad_request`, `idempotency_key_missing`, `idempotency_key_invalid` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout` */
            408: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_request_in_progress` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed`, `idempotency_key_reused`, `url_not_allowed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large` */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description How many to return. Out of range: 422 validation_failed with pointer `#/limit`. */
                limit?: components["parameters"]["Limit"];
                /** @description The `nextCursor` of the previous page, as returned: opaque. Pages are stable while new resources arrive (nothing repeated or skipped). Anything else: 422 with pointer `#/cursor`. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Only events of this type. Another value: 422 with pointer `#/type`. */
                type?: components["parameters"]["EventType"];
                /** @description Only events recorded at or after this ISO 8601 moment. Malformed: 422 with pointer `#/since`. */
                since?: components["parameters"]["EventSince"];
            };
            header?: {
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventList"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Event"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    redeliverEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description Makes the POST safe to retry: 1–255 printable ASCII characters, remembered for 24 hours per project. The same key with the same body replays the first answer; with another body it is refused. HTTP drops spaces around a header's value, so a key cannot start or end with one (a key of only spaces arrives empty: 400 idempotency_key_invalid). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RedeliverEventRequest"];
            };
        };
        responses: {
            /** @description Done; a replay of the first request with this Idempotency-Key answers the same */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Redelivery"];
                };
            };
            /** @description `invalid_json`, `bad_request`, `idempotency_key_missing`, `idempotency_key_invalid` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout` */
            408: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_request_in_progress` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed`, `idempotency_key_reused` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large` */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                /** @description How many to return. Out of range: 422 validation_failed with pointer `#/limit`. */
                limit?: components["parameters"]["Limit"];
                /** @description The `nextCursor` of the previous page, as returned: opaque. Pages are stable while new resources arrive (nothing repeated or skipped). Anything else: 422 with pointer `#/cursor`. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header: {
                /** @description Makes the POST safe to retry: 1–255 printable ASCII characters, remembered for 24 hours per project. The same key with the same body replays the first answer; with another body it is refused. HTTP drops spaces around a header's value, so a key cannot start or end with one (a key of only spaces arrives empty: 400 idempotency_key_invalid). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookEndpointRequest"];
            };
        };
        responses: {
            /** @description A replay: the stored answer to the first request with this Idempotency-Key */
            200: {
                headers: {
                    /** @description Always `true` here */
                    "Idempotent-Replayed": "true";
                    Location: components["headers"]["Location"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description Created; `Location` is /v1/webhook-endpoints/{id} */
            201: {
                headers: {
                    Location: components["headers"]["Location"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description `invalid_json`, `bad_request`, `idempotency_key_missing`, `idempotency_key_invalid` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout` */
            408: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_request_in_progress` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed`, `idempotency_key_reused`, `url_not_allowed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large` */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header: {
                /** @description Makes the POST safe to retry: 1–255 printable ASCII characters, remembered for 24 hours per project. The same key with the same body replays the first answer; with another body it is refused. HTTP drops spaces around a header's value, so a key cannot start or end with one (a key of only spaces arrives empty: 400 idempotency_key_invalid). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookEndpointRequest"];
            };
        };
        responses: {
            /** @description Done; a replay of the first request with this Idempotency-Key answers the same */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description `invalid_json`, `bad_request`, `idempotency_key_missing`, `idempotency_key_invalid` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout` */
            408: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_request_in_progress` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed`, `idempotency_key_reused`, `url_not_allowed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large` */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedWebhookEndpoint"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    rotateWebhookEndpointSecret: {
        parameters: {
            query?: never;
            header: {
                /** @description Makes the POST safe to retry: 1–255 printable ASCII characters, remembered for 24 hours per project. The same key with the same body replays the first answer; with another body it is refused. HTTP drops spaces around a header's value, so a key cannot start or end with one (a key of only spaces arrives empty: 400 idempotency_key_invalid). */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        /** @description No body, an empty one, or `{}`: the operation takes no fields */
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Done; a replay of the first request with this Idempotency-Key answers the same */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description `invalid_json`, `bad_request`, `idempotency_key_missing`, `idempotency_key_invalid` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout` */
            408: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_request_in_progress` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed`, `idempotency_key_reused` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large` */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebhookEndpointDeliveries: {
        parameters: {
            query?: {
                /** @description How many to return. Out of range: 422 validation_failed with pointer `#/limit`. */
                limit?: components["parameters"]["Limit"];
                /** @description The `nextCursor` of the previous page, as returned: opaque. Pages are stable while new resources arrive (nothing repeated or skipped). Anything else: 422 with pointer `#/cursor`. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Only attempts with this outcome. Another value: 422 with pointer `#/status`. */
                status?: components["parameters"]["DeliveryOutcome"];
            };
            header?: {
                /** @description Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is not refused: the answer carries a new id instead. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found. */
                id: components["parameters"]["ResourceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryAttemptList"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Always `Bearer` */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthStatus"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthStatus"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `storage_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying */
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    invoicePaidWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (a UUIDv7), the same on every retry: deduplicate on it. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance). */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint's whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core). */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvoiceEvent"] & {
                    /** @constant */
                    type?: "invoice.paid";
                };
            };
        };
        responses: {
            /** @description Received. Any other status, a redirect or no answer within 10 s is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    invoiceExpiredWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (a UUIDv7), the same on every retry: deduplicate on it. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance). */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint's whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core). */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvoiceEvent"] & {
                    /** @constant */
                    type?: "invoice.expired";
                };
            };
        };
        responses: {
            /** @description Received. Any other status, a redirect or no answer within 10 s is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    invoiceCanceledWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (a UUIDv7), the same on every retry: deduplicate on it. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance). */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint's whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core). */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvoiceEvent"] & {
                    /** @constant */
                    type?: "invoice.canceled";
                };
            };
        };
        responses: {
            /** @description Received. Any other status, a redirect or no answer within 10 s is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    subscriptionCreatedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (a UUIDv7), the same on every retry: deduplicate on it. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance). */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint's whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core). */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionEvent"] & {
                    /** @constant */
                    type?: "subscription.created";
                };
            };
        };
        responses: {
            /** @description Received. Any other status, a redirect or no answer within 10 s is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    subscriptionActivatedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (a UUIDv7), the same on every retry: deduplicate on it. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance). */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint's whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core). */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionEvent"] & {
                    /** @constant */
                    type?: "subscription.activated";
                };
            };
        };
        responses: {
            /** @description Received. Any other status, a redirect or no answer within 10 s is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    subscriptionRenewedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (a UUIDv7), the same on every retry: deduplicate on it. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance). */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint's whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core). */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionEvent"] & {
                    /** @constant */
                    type?: "subscription.renewed";
                };
            };
        };
        responses: {
            /** @description Received. Any other status, a redirect or no answer within 10 s is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    subscriptionPastDueWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (a UUIDv7), the same on every retry: deduplicate on it. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance). */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint's whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core). */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionEvent"] & {
                    /** @constant */
                    type?: "subscription.past_due";
                };
            };
        };
        responses: {
            /** @description Received. Any other status, a redirect or no answer within 10 s is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    subscriptionCanceledWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (a UUIDv7), the same on every retry: deduplicate on it. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance). */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint's whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core). */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionEvent"] & {
                    /** @constant */
                    type?: "subscription.canceled";
                };
            };
        };
        responses: {
            /** @description Received. Any other status, a redirect or no answer within 10 s is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    subscriptionUpdatedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (a UUIDv7), the same on every retry: deduplicate on it. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance). */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint's whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core). */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionEvent"] & {
                    /** @constant */
                    type?: "subscription.updated";
                };
            };
        };
        responses: {
            /** @description Received. Any other status, a redirect or no answer within 10 s is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    subscriptionTrialWillEndWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (a UUIDv7), the same on every retry: deduplicate on it. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance). */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint's whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core). */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionEvent"] & {
                    /** @constant */
                    type?: "subscription.trial_will_end";
                };
            };
        };
        responses: {
            /** @description Received. Any other status, a redirect or no answer within 10 s is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    subscriptionPausedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (a UUIDv7), the same on every retry: deduplicate on it. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance). */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint's whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core). */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionEvent"] & {
                    /** @constant */
                    type?: "subscription.paused";
                };
            };
        };
        responses: {
            /** @description Received. Any other status, a redirect or no answer within 10 s is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    subscriptionResumedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (a UUIDv7), the same on every retry: deduplicate on it. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance). */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint's whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core). */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionEvent"] & {
                    /** @constant */
                    type?: "subscription.resumed";
                };
            };
        };
        responses: {
            /** @description Received. Any other status, a redirect or no answer within 10 s is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    subscriptionMethodUpdatedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (a UUIDv7), the same on every retry: deduplicate on it. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance). */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint's whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core). */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionEvent"] & {
                    /** @constant */
                    type?: "subscription.method_updated";
                };
            };
        };
        responses: {
            /** @description Received. Any other status, a redirect or no answer within 10 s is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    paymentCanceledWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (a UUIDv7), the same on every retry: deduplicate on it. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance). */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint's whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core). */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentEvent"] & {
                    /** @constant */
                    type?: "payment.canceled";
                };
            };
        };
        responses: {
            /** @description Received. Any other status, a redirect or no answer within 10 s is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    refundSucceededWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (a UUIDv7), the same on every retry: deduplicate on it. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance). */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint's whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core). */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RefundEvent"] & {
                    /** @constant */
                    type?: "refund.succeeded";
                };
            };
        };
        responses: {
            /** @description Received. Any other status, a redirect or no answer within 10 s is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    refundCanceledWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (a UUIDv7), the same on every retry: deduplicate on it. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance). */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint's whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core). */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RefundEvent"] & {
                    /** @constant */
                    type?: "refund.canceled";
                };
            };
        };
        responses: {
            /** @description Received. Any other status, a redirect or no answer within 10 s is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    customerCreatedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (a UUIDv7), the same on every retry: deduplicate on it. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance). */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint's whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core). */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomerEvent"] & {
                    /** @constant */
                    type?: "customer.created";
                };
            };
        };
        responses: {
            /** @description Received. Any other status, a redirect or no answer within 10 s is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    customerUpdatedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (a UUIDv7), the same on every retry: deduplicate on it. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance). */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint's whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core). */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomerEvent"] & {
                    /** @constant */
                    type?: "customer.updated";
                };
            };
        };
        responses: {
            /** @description Received. Any other status, a redirect or no answer within 10 s is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    customerErasedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (a UUIDv7), the same on every retry: deduplicate on it. */
                "webhook-id": components["parameters"]["webhook-id"];
                /** @description Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance). */
                "webhook-timestamp": components["parameters"]["webhook-timestamp"];
                /** @description v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint's whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core). */
                "webhook-signature": components["parameters"]["webhook-signature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomerEvent"] & {
                    /** @constant */
                    type?: "customer.erased";
                };
            };
        };
        responses: {
            /** @description Received. Any other status, a redirect or no answer within 10 s is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
