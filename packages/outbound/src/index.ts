// @kopek/outbound — Kopek's guarded outbound HTTP, shared by webhooks and provider adapters.

export {
  createGuardedSend,
  createProviderSend,
  type GuardOptions,
  type OutboundAnswer,
  type OutboundFailure,
  type OutboundRequest,
  type ProviderOutboundOptions,
  type SendOutbound,
} from "./guarded-request.js";
export { isLoopbackAddress, type OutboundPolicy, outboundUrlProblem } from "./outbound-url-policy.js";
export { resolvingTo } from "./resolving-to.js";
export {
  createRetryingExchange,
  DEFAULT_MAX_BODY_BYTES,
  type Exchange,
  type ExchangeRequest,
  type RetryingExchangeOptions,
} from "./retrying-exchange.js";
