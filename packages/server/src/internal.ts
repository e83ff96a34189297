// `@incasso/server/internal`: names our own packages (the app, the console, the test utilities)
// share with the kernel, outside the public surface (decision server-public-surface). Not covered
// by semver: any release may change or remove them.
export { authenticateKey } from "./auth.js";
export { readBodyBytes } from "./json-body.js";
export { type OrdersRateLimitOptions, ordersRateLimit } from "./key-rate-limits.js";
export {
  EXAMPLE_BUSINESS_DEBTOR,
  EXAMPLE_INDIVIDUAL_DEBTOR,
  EXAMPLE_ORDER_REQUEST,
  EXAMPLE_WEBHOOK_EVENT,
  OPERATION_EXAMPLES,
} from "./openapi-examples.js";
