import {
  CreateOrderSchema,
  deriveActionId,
  deriveOrderId,
  getOrderStatus,
  HoldRequestSchema,
  type KeyMode,
  ListOrdersQuerySchema,
  listOrders,
  OrderActionSchema,
  type OrderEngine,
  OrderIdSchema,
  OrderListSchema,
  OrderSchema,
  OrderStatusSchema,
  PaymentReportSchema,
  requestOrderAction,
  submitOrder,
  WithdrawRequestSchema,
} from "@incasso/core";
import { z } from "zod";
import { requirePrincipal } from "../auth.js";
import { noteOrderCreated } from "../completed-request.js";
import type { Logger } from "../create-api.js";
import {
  IDEMPOTENCY_REQUEST_HEADERS,
  IDEMPOTENCY_RESPONSE_HEADERS,
  type IdempotencySettings,
  idempotency,
  parseIdempotencyKey,
  storeErrorsTo,
} from "../idempotency.js";
import { requestFingerprint } from "../internal/request-fingerprint.js";
import { keyRateLimit, ordersRateLimit } from "../key-rate-limits.js";
import {
  type ApiPlugin,
  definePlugin,
  defineRoute,
  json,
  type RouteInterceptor,
  type RouteResponse,
} from "../plugin.js";
import { RATE_LIMIT_HEADERS, type RateLimiter } from "../rate-limit.js";

/**
 * Options of {@link ordersPlugin}.
 *
 * @example
 * const options: OrdersPluginOptions = { engine: createOrderEngine({ store, caseSystem }), rateLimiter };
 */
export interface OrdersPluginOptions {
  engine: OrderEngine;
  rateLimiter: RateLimiter;
  /** Requests per minute per key of GET /orders and the control requests (shared bucket); default 120. */
  perMinute?: number;
  /** Where a failed write of an idempotency record is reported; default the console. */
  logger?: Logger;
  /** The lease and retention of Idempotency-Key records (decision idempotency-lease-setting). */
  idempotency?: IdempotencySettings;
}

// The route schemas document the spec's objects in the OpenAPI document; the engine validates the
// raw request itself (all violations at once, the spec's codes, 404 rather than 422 for a malformed
// id), so at the route every value passes unchanged.
const asSent = <S extends z.ZodType>(schema: S) => schema.catch((ctx) => ctx.input as z.output<S>);
const ListQuery = z.object(
  Object.fromEntries(Object.entries(ListOrdersQuerySchema.shape).map(([name, s]) => [name, asSent(s)])),
);
const OrderIdParams = z.object({ orderId: asSent(OrderIdSchema) });

/** The query string as strings, a repeated parameter as an array (refused by the engine). */
function rawQuery(url: URL): Record<string, string | string[]> {
  // No prototype: a parameter named `__proto__` is a plain (unknown, refused) name, never a setter.
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of url.searchParams) {
    const seen = out[name];
    out[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}

/**
 * The id a keyed request derives (an order id, a control request's id): none without an
 * `Idempotency-Key`; with one, from the key and the idempotency interceptor's fingerprint (method,
 * path, body), so a retry of the same request gets the same id.
 */
async function keyedRequestId(
  ctx: Parameters<typeof requestFingerprint>[0],
  principal: { organisationId: string; mode: KeyMode },
  derive: (input: {
    organisationId: string;
    mode: KeyMode;
    idempotencyKey: string;
    fingerprint: string;
  }) => string,
): Promise<string | undefined> {
  const key = parseIdempotencyKey(ctx.request.headers);
  if (key === undefined) return undefined;
  return derive({
    organisationId: principal.organisationId,
    mode: principal.mode,
    idempotencyKey: key,
    fingerprint: await requestFingerprint(ctx),
  });
}

const withLimits = (description: string): RouteResponse => ({ description, headers: RATE_LIMIT_HEADERS });

// An absent body counts as `{}` on the control requests (decision orders-control-requests), for the
// Idempotency-Key's fingerprint too: a retry that sends `{}` after a first request without a body
// is the same request, not a conflict (decision orders-control-idempotency). Runs before the
// idempotency interceptor, which fingerprints `ctx.rawBody`.
const absentBodyAsEmptyObject: RouteInterceptor = (ctx, next) => {
  if (ctx.rawBody === undefined) ctx.rawBody = {};
  return next();
};

/**
 * The order endpoints (spec: POST /orders, GET /orders, GET /orders/{orderId}, POST
 * /orders/{orderId}/hold, /withdraw and /payments) on the order engine of @incasso/core. POST
 * /orders has the per-key order limits (30 per minute, 500 per day by default); the other routes
 * share the per-key API limit. POST /orders and the three control requests have the
 * Idempotency-Key machinery (decisions idempotency-keys, orders-control-idempotency). Every
 * response of these routes past authentication carries the RateLimit headers.
 *
 * @example
 * createApi({ store, caseSystem: createBuiltInCaseSystem({ store }) }); // installs this plugin
 * createApi({ store, caseSystem: myCaseSystem }); // or with a host's own case system
 */
export function ordersPlugin(options: OrdersPluginOptions): ApiPlugin {
  const { engine } = options;
  const limit = keyRateLimit({
    limiter: options.rateLimiter,
    ...(options.perMinute ? { perMinute: options.perMinute } : {}),
  });
  const common = {
    401: { description: "Key missing, invalid or revoked (`unauthorized`)." },
    429: withLimits("Rate limit reached (`rate_limited`), with Retry-After."),
  };
  const notFound = withLimits(
    "`not_found`: no such order for this key. Unknown, malformed and other accounts' ids get the same answer.",
  );
  const upstream = withLimits("`upstream_error`: the case system failed; nothing was stored. Retry later.");
  const control = (action: "hold" | "withdraw" | "payments") => {
    const isPayment = action === "payments";
    const body = asSent(
      action === "hold"
        ? HoldRequestSchema
        : action === "withdraw"
          ? WithdrawRequestSchema
          : PaymentReportSchema,
    );
    return defineRoute({
      method: "POST",
      path: `/orders/:orderId/${action}`,
      operationId: { hold: "holdOrder", withdraw: "withdrawOrder", payments: "reportPayment" }[action],
      summary: {
        hold: "Request a pause of the collection",
        withdraw: "Request withdrawal of the order",
        payments: "Report a payment made directly to the client",
      }[action],
      description:
        "Placed as a task with instructions on the case for a human handler and listed on the order with status " +
        "`requested`; the API changes nothing financial itself." +
        (action === "withdraw" ? " Withdrawing can affect the no-cure-no-pay fee arrangement." : "") +
        (isPayment
          ? " `payment_date` defaults to today (Europe/Amsterdam). The body must carry `amount_cents`; an absent" +
            " body counts as `{}` and is refused with 422."
          : " The body is optional; an absent body counts as `{}`.") +
        " Send an Idempotency-Key to make a retry safe: a repeat with the same key and content is answered with " +
        "the first answer and places no second task; the key on another order or another control request is " +
        "409 `idempotency_conflict`.",
      tags: ["orders"],
      auth: "required",
      // An absent body counts as `{}` on all three (decision orders-control-requests): hold and
      // withdraw proceed, a payment report is refused with 422 naming amount_cents, not 415. The
      // document still marks the payment body required, as the spec does ("Body required").
      request: {
        params: OrderIdParams,
        body,
        bodyOptional: true,
        documentBodyRequired: isPayment,
        maxBodyBytes: 64 * 1024,
        headers: IDEMPOTENCY_REQUEST_HEADERS,
      },
      responses: {
        202: {
          description: "The request was placed on the case.",
          schema: OrderActionSchema,
          headers: { ...RATE_LIMIT_HEADERS, ...IDEMPOTENCY_RESPONSE_HEADERS },
        },
        400: withLimits("Invalid JSON (`invalid_json`); an empty body counts as `{}`."),
        ...common,
        404: notFound,
        409: withLimits(
          "`order_has_no_case`: the order was submitted with a test key and has no case; " +
            "`test_key_on_live_order`: a test key cannot steer a live order; `idempotency_conflict`: the " +
            "Idempotency-Key was used with other content, on another order or for another control request; " +
            "`idempotency_in_progress`: the first request with the key still runs (Retry-After).",
        ),
        413: withLimits("Body too large (`payload_too_large`)."),
        415: withLimits(
          "A body is sent whose Content-Type is not application/json (`unsupported_media_type`).",
        ),
        422: withLimits(
          isPayment
            ? "`validation_error`: `amount_cents` missing or below 1, an invalid `payment_date` or a `reason` over 1000 characters."
            : "`validation_error`: `reason` over 1000 characters or not a string.",
        ),
        502: upstream,
      },
      guards: [limit],
      interceptors: [
        absentBodyAsEmptyObject,
        idempotency({ ...options.idempotency, store: engine.store, ...storeErrorsTo(options.logger) }),
      ],
      handle: async (ctx) => {
        const principal = requirePrincipal(ctx);
        // A retry of the same request reuses the task id the case system is idempotent on
        // (decision orders-control-idempotency).
        const actionId = await keyedRequestId(ctx, principal, deriveActionId);
        // A retry that finds its action stored (the first answer was lost before its record was
        // kept) gets the earlier answer and, like every replay, says so.
        let replayed = false;
        const onAlreadyStored = () => {
          replayed = true;
        };
        const answer = await requestOrderAction(engine, principal, ctx.params.orderId, action, ctx.rawBody, {
          now: ctx.now(),
          ...(actionId ? { actionId, onAlreadyStored } : {}),
        });
        return json(answer, {
          status: 202,
          ...(replayed ? { headers: { "Idempotency-Replayed": "true" } } : {}),
        });
      },
    });
  };

  return definePlugin({
    name: "orders",
    tags: [{ name: "orders", description: "Submit collection orders, read and steer them" }],
    routes: [
      defineRoute({
        method: "POST",
        path: "/orders",
        operationId: "createOrder",
        summary: "Submit a collection order",
        description:
          "Validates every field rule at once (422 with errors[]), checks the PDF attachments (422 " +
          "`invalid_attachment`), compares them with the declared data (warnings), and with a live key puts the " +
          "order on a case: added to an open case for a debtor's customer_number (case.new false, warning " +
          "`attached_to_existing_case`) or a new one. A test key validates everything and creates no case. " +
          "A PDF with active content (JavaScript, a Launch action, an embedded file, bytes before `%PDF-`) is " +
          "accepted as sent with the warning `pdf_active_content` naming it, or, on a server set to refuse " +
          "such files, refused as `invalid_attachment` with errors[].code `pdf_active_content`. " +
          "Synchronous; send an Idempotency-Key and use a time-out of at least 120 seconds.",
        tags: ["orders"],
        auth: "required",
        request: {
          // The engine validates the order once, every violation at once (validateCreateOrder).
          body: CreateOrderSchema,
          bodyValidatedBy: "handler",
          headers: IDEMPOTENCY_REQUEST_HEADERS,
          // The body and the attachments decoded from it (decision server-body-budget).
          bodyBudgetWeight: 1.75,
        },
        responses: {
          201: {
            description: "The order was accepted.",
            schema: OrderSchema,
            headers: { ...RATE_LIMIT_HEADERS, ...IDEMPOTENCY_RESPONSE_HEADERS },
          },
          400: withLimits("Empty body or invalid JSON (`empty_body`, `invalid_json`)."),
          401: common[401],
          403: withLimits(
            "A `creditor` object while creditor management is off (`creditor_feature_disabled`).",
          ),
          409: withLimits(
            "`idempotency_conflict` (same key, other content) or `idempotency_in_progress` (the first request still runs).",
          ),
          413: withLimits("The request is over 40 MB (`payload_too_large`)."),
          415: withLimits("Content-Type is not application/json (`unsupported_media_type`)."),
          422: withLimits(
            "Refused; see errors[]: `validation_error`, `amount_too_high`, `wik_letter_required`, " +
              "`invalid_attachment` or `unknown_creditor`.",
          ),
          429: common[429],
          502: upstream,
          503: withLimits(
            "`attachment_check_unavailable`: the PDF engine is busy; or `server_busy`: too many large " +
              "requests at once, refused before the body was read. Nothing was stored. Retry after Retry-After seconds.",
          ),
        },
        guards: [ordersRateLimit({ limiter: options.rateLimiter })],
        interceptors: [
          idempotency({ ...options.idempotency, store: engine.store, ...storeErrorsTo(options.logger) }),
        ],
        handle: async (ctx) => {
          const principal = requirePrincipal(ctx);
          // A retry with the same key and content derives the same order id (decision
          // orders-engine-order-ids).
          const orderId = await keyedRequestId(ctx, principal, deriveOrderId);
          // A retry that finds its order stored (the first answer was lost, or its Idempotency-Key
          // record was not completed before a crash) gets the earlier answer, and like every replay
          // it says so (spec POST /orders rule 3; decision idempotency-keys).
          let replayed = false;
          const onAlreadyStored = () => {
            replayed = true;
          };
          // The engine's refusals reach the client through the API's one error mapping (toApiError).
          const order = await submitOrder(engine, principal, ctx.rawBody, {
            now: ctx.now(),
            ...(orderId ? { orderId, onAlreadyStored } : {}),
          });
          // A replay created nothing now: it is counted as a replay, not as an order.
          if (!replayed) noteOrderCreated(ctx, order);
          return json(order, {
            status: 201,
            ...(replayed ? { headers: { "Idempotency-Replayed": "true" } } : {}),
          });
        },
      }),
      defineRoute({
        method: "GET",
        path: "/orders",
        operationId: "listOrders",
        summary: "List orders, newest first",
        description:
          "Orders submitted with this key, or every API order of the organisation, per the key's visibility " +
          "setting; never another account's. Keyset pagination: pass next_cursor as cursor.",
        tags: ["orders"],
        auth: "required",
        request: { query: ListQuery },
        responses: {
          200: { description: "A page of orders.", schema: OrderListSchema, headers: RATE_LIMIT_HEADERS },
          ...common,
          422: withLimits(
            "`validation_error`: `limit` not a whole number from 1 to 100, an unknown `type`, a repeated parameter or an invalid `cursor`.",
          ),
        },
        guards: [limit],
        handle: (ctx) => listOrders(engine, requirePrincipal(ctx), rawQuery(ctx.url)),
      }),
      defineRoute({
        method: "GET",
        path: "/orders/:orderId",
        operationId: "getOrder",
        summary: "Read an order with its live case status",
        tags: ["orders"],
        auth: "required",
        request: { params: OrderIdParams },
        responses: {
          200: { description: "The order.", schema: OrderStatusSchema, headers: RATE_LIMIT_HEADERS },
          ...common,
          404: notFound,
          502: upstream,
        },
        guards: [limit],
        handle: (ctx) =>
          getOrderStatus(engine, requirePrincipal(ctx), ctx.params.orderId, { now: ctx.now() }),
      }),
      control("hold"),
      control("withdraw"),
      control("payments"),
    ],
  });
}
