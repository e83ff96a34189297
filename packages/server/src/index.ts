// The public surface of @incasso/server: what a host needs to build and serve the API, what a
// plugin needs to add routes, and what an adapter needs to hand answers to its framework (decision
// server-public-surface). Everything else is private; our own packages reach a few more names
// through `@incasso/server/internal`, which is not covered by semver.
export { ApiError, type ApiErrorInit, type FieldError, isApiError, validationError } from "./api-error.js";
export { forgetApiKey } from "./api-key-cache.js";
export { principalOf, requirePrincipal } from "./auth.js";
export {
  type Authenticate,
  type AuthenticateHelpers,
  apiKeyAuthentication,
} from "./authenticate.js";
export type { CompletedRequest } from "./completed-request.js";
export { consoleLogger } from "./console-logger.js";
export {
  CorsOptionError,
  type CorsOptions,
  isCorsOptionError,
  parseCorsOrigins,
} from "./cors.js";
export {
  type CreateApiOptions,
  createApi,
  type IncassoApi,
  type Logger,
  type PluginEnvironment,
  type PluginFactory,
  type RequestContext,
} from "./create-api.js";
export { ERROR_CODES, type ErrorCode, type ErrorCodeEntry, statusOfCode } from "./error-codes.js";
export {
  DEFAULT_IDEMPOTENCY_LEASE_SECONDS,
  IDEMPOTENCY_LEASE_BOUNDS,
  type IdempotencyOptions,
  type IdempotencySettings,
  idempotency,
  idempotencyLeaseSeconds,
  MIN_IDEMPOTENCY_RETENTION_SECONDS,
} from "./idempotency.js";
export { isKernelOptionError, KernelOptionError, type KernelOptions } from "./kernel-options.js";
export { type KeyRateLimitOptions, keyRateLimit } from "./key-rate-limits.js";
export { API_KEY_SECURITY_SCHEME, type OpenApiDocument } from "./openapi.js";
export {
  type ApiPlugin,
  definePlugin,
  defineRoute,
  type HandlerResult,
  json,
  type RouteAuth,
  type RouteContext,
  type RouteDefinition,
  type RouteGuard,
  type RouteInterceptor,
  type RouteMethod,
  type RouteResponse,
} from "./plugin.js";
export type { HealthOptions, ReadinessReport } from "./plugins/health.js";
export type { RolRouterPluginOptions } from "./plugins/rol-router.js";
export type { ToolRateLimitOptions } from "./plugins/tool-limits.js";
export type { WikPluginOptions } from "./plugins/wik.js";
export { PROBLEM_TYPE_BASE, type ProblemDetails, problemResponse, toProblemDetails } from "./problem.js";
export { ProblemSchema } from "./problem-schema.js";
export {
  MemoryRateLimiter,
  RATE_LIMIT_HEADERS,
  type RateLimiter,
  type RateLimitGuardOptions,
  type RateLimitState,
  rateLimitGuard,
} from "./rate-limit.js";
export { requestIdFromHeader } from "./request-id.js";
export { type ResponseParts, responseParts } from "./response-parts.js";
export { type MultiWindowRateLimiter, type RateLimitWindow, StoreRateLimiter } from "./store-rate-limiter.js";
