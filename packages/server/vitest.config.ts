import { kopekProject } from "../../vitest.shared.js";

// The server's tests run webhook receivers on this machine: the development opt-in of
// src/webhooks/webhook-url-policy.ts. Tests of the refusals pass their policy explicitly.
process.env.KOPEK_WEBHOOKS_ALLOW_LOCAL ??= "on";
// Likewise the provider emulators and services (KOPEK_PROVIDERS_ALLOW_LOCAL, @kopek/outbound).
process.env.KOPEK_PROVIDERS_ALLOW_LOCAL ??= "on";

export default kopekProject("server");
