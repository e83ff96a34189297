export { ApiError, type ApiErrorInit, type FieldError, isApiError, validationError } from "./api-error.js";
export {
  API_KEY_CACHE_MAX_ENTRIES,
  API_KEY_CACHE_TTL_MS,
  ApiKeyCache,
  type ApiKeyCacheOptions,
  apiKeyCacheOf,
  forgetApiKey,
  setApiKeyCache,
} from "./api-key-cache.js";
export {
  authenticateKey,
  authenticateRequest,
  PRINCIPAL_STATE_KEY,
  principalOf,
  requirePrincipal,
  unauthorized,
} from "./auth.js";
export {
  type Authenticate,
  type AuthenticateHelpers,
  apiKeyAuthentication,
} from "./authenticate.js";
export {
  BODY_BUDGET_RETRY_AFTER_SECONDS,
  type BodyBudget,
  type BodyBudgetShare,
  bodyBudgetExhausted,
  createBodyBudget,
  DEFAULT_BODY_BUDGET_BYTES,
} from "./body-budget.js";
export {
  type CompletedRequest,
  noteOrderCreated,
  ORDER_CREATED_STATE_KEY,
} from "./completed-request.js";
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
export {
  codesWithStatus,
  ERROR_CODES,
  type ErrorCode,
  type ErrorCodeEntry,
  statusOfCode,
} from "./error-codes.js";
export { CORE_ERROR_STATUS, ORDER_ENGINE_ERROR_STATUS } from "./error-status.js";
export { hostCodes } from "./host-codes.js";
export {
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_REQUEST_HEADERS,
  IDEMPOTENCY_RESPONSE_HEADERS,
  type IdempotencyOptions,
  idempotency,
  idempotencyScope,
  MIN_IDEMPOTENCY_RETENTION_SECONDS,
  parseIdempotencyKey,
} from "./idempotency.js";
export {
  DEFAULT_MAX_BODY_BYTES,
  MAX_JSON_DEPTH,
  type ReadJsonBodyOptions,
  readBodyBytes,
  readJsonBody,
} from "./json-body.js";
export {
  assertKernelOptions,
  isKernelOptionError,
  KernelOptionError,
  type KernelOptions,
} from "./kernel-options.js";
export {
  type KeyRateLimitOptions,
  keyRateLimit,
  type OrdersRateLimitOptions,
  ordersRateLimit,
} from "./key-rate-limits.js";
export {
  API_KEY_SECURITY_SCHEME,
  buildOpenApiDocument,
  type OpenApiDocument,
  type OpenApiInput,
  type OpenApiWebhook,
} from "./openapi.js";
export {
  EXAMPLE_BUSINESS_DEBTOR,
  EXAMPLE_DATE,
  EXAMPLE_INDIVIDUAL_DEBTOR,
  EXAMPLE_ORDER_REQUEST,
  EXAMPLE_WEBHOOK_EVENT,
  OPERATION_EXAMPLES,
  problemExample,
} from "./openapi-examples.js";
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
export { type CreditorsPluginOptions, creditorsPlugin } from "./plugins/creditors.js";
export {
  type HealthOptions,
  healthPlugin,
  LivenessSchema,
  NotReadySchema,
  type ReadinessReport,
  ReadinessSchema,
} from "./plugins/health.js";
export { openApiPlugin } from "./plugins/openapi.js";
export { type OrdersPluginOptions, ordersPlugin } from "./plugins/orders.js";
export { type PingResponse, PingResponseSchema, pingPlugin } from "./plugins/ping.js";
export { type RolRouterPluginOptions, rolRouterPlugin } from "./plugins/rol-router.js";
export { type ToolRateLimitOptions, toolRateLimit } from "./plugins/tool-limits.js";
export { type WikPluginOptions, wikPlugin } from "./plugins/wik.js";
export { principalProblem } from "./principal-check.js";
export {
  PROBLEM_TYPE_BASE,
  type ProblemDetails,
  problemResponse,
  statusTitle,
  toProblemDetails,
} from "./problem.js";
export { ProblemSchema } from "./problem-schema.js";
export {
  MemoryRateLimiter,
  RATE_LIMIT_HEADERS,
  type RateLimiter,
  type RateLimitGuardOptions,
  type RateLimitState,
  rateLimitGuard,
} from "./rate-limit.js";
export { newRequestId, requestIdFor, requestIdFromHeader } from "./request-id.js";
export { type ResponseParts, rememberResponseParts, responseParts } from "./response-parts.js";
export { StoreRateLimiter } from "./store-rate-limiter.js";
export { storeUnavailableApiError, toApiError } from "./to-api-error.js";
export { formatFieldPath, parseOrThrow, zodIssuesToFieldErrors } from "./validation.js";
