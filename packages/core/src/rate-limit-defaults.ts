/**
 * The default per-key limits of POST /orders: 30 per minute and 500 per day (spec section Limits,
 * "Request rate"). A key can be given higher limits by agreement (`incasso keys create --per-minute`).
 *
 * @example
 * DEFAULT_ORDER_RATE_LIMITS.perMinute; // 30
 */
export const DEFAULT_ORDER_RATE_LIMITS = Object.freeze({ perMinute: 30, perDay: 500 });

/**
 * Our numbers for the other protected endpoints (GET /orders, GET /orders/{id}, the control
 * requests, GET and POST /creditors), which the spec leaves open: 120 per minute per key, shared by
 * those endpoints (docs/decisions/keys-rate-limits.md).
 *
 * @example
 * DEFAULT_API_RATE_LIMIT.perMinute; // 120
 */
export const DEFAULT_API_RATE_LIMIT = Object.freeze({ perMinute: 120 });
