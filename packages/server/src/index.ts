// @kopek/server — Kopek's reference HTTP server on Fastify. Named exports only.

export { type AppDeps, buildApp, DEFAULT_BODY_LIMIT_BYTES, DEFAULT_RATE_LIMIT_PER_SECOND } from "./app.js";
export {
  DEFAULT_INTERVAL_MS,
  type KopekBackground,
  type KopekBackgroundOptions,
  startKopekBackground,
} from "./background.js";
export {
  createKopekHandler,
  type KopekFastifyPluginOptions,
  type KopekRequestHandler,
  kopekFastifyPlugin,
} from "./embedding.js";
export { requestIdFor } from "./http/request-id.js";
export type { KopekRoutesOptions } from "./kopek-routes.js";
export { type RunningServer, startServer } from "./main.js";
export { createKopekMetrics, type KopekMetrics } from "./metrics/kopek-metrics.js";
export { reportAmountMismatches } from "./startup/amount-mismatches.js";
export { type Config, LOG_LEVELS, loadConfig } from "./startup/config.js";
export { createLogger, type LoggerOptions, redactSecrets, reportKopekErrors } from "./startup/logger.js";
export { createProjectWithKey, type ProjectWithKey } from "./startup/project-setup.js";
export {
  applyProjectsFile,
  type LoadedProjectsFile,
  loadProjectsFile,
  type ProjectsFile,
  parseProjectsFile,
  resolveProjectsFile,
} from "./startup/projects-file.js";
export { createProviderRegistry, type ProviderRegistryOptions } from "./startup/providers.js";
