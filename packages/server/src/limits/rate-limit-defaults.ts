// The defaults of KOPEK_RATE_LIMIT*, on their own so that reading the configuration (startup/config.ts,
// which every kopek command does) loads neither Fastify nor rate-limiter-flexible.

/** Requests per API key per second (KOPEK_RATE_LIMIT). */
export const DEFAULT_RATE_LIMIT_PER_SECOND = 100;
/** Failed authentications per client IP per minute (KOPEK_RATE_LIMIT_UNAUTHENTICATED). */
export const DEFAULT_FAILED_AUTH_PER_IP_PER_MINUTE = 60;
/** Requests to the public routes per client IP per minute (KOPEK_RATE_LIMIT_PUBLIC). */
export const DEFAULT_PUBLIC_PER_IP_PER_MINUTE = 600;
