// @kopek/provider-http — a payment provider over HTTP, and the service that serves one.

export {
  createHttpProvider,
  DEFAULT_HTTP_PROVIDER_CAPABILITIES,
  DEFAULT_HTTP_PROVIDER_TIMEOUT_MS,
  type HttpProviderOptions,
} from "./http-provider.js";
export {
  createProviderService,
  type ProviderServiceHandler,
  type RunningProviderService,
  startProviderService,
} from "./provider-service.js";
export { PATHS as PROVIDER_PROTOCOL_PATHS } from "./wire.js";
