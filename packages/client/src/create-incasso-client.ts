import { newIdempotencyKey } from "./internal/idempotency-key.js";
import type { RetrySettings } from "./internal/retry-policy.js";
import { type ClientSettings, send } from "./internal/send.js";
import type { ResponseMeta, WithResponse } from "./response-meta.js";
import type {
  CreateCreditorRequest,
  CreateOrder,
  Creditor,
  CreditorList,
  HoldRequest,
  ListCreditorsQuery,
  ListOrdersQuery,
  Order,
  OrderAction,
  OrderList,
  OrderListItem,
  OrderStatus,
  PaymentReport,
  PingResponse,
  RolRouterRequest,
  RolRouterResult,
  WikCalculation,
  WikRequest,
  WithdrawRequest,
} from "./wire-types.js";

/**
 * How a client retries (see the README, "Retries"). Every field is optional.
 *
 * @example
 * createIncassoClient({ baseUrl, apiKey, retries: { max: 5, maxDelayMs: 20_000 } });
 */
export interface RetryOptions {
  /** Retries after the first attempt; default 3, 0 turns retrying off. */
  max?: number;
  /** First backoff delay when the answer names none; doubled per retry. Default 500 ms. */
  baseDelayMs?: number;
  /** Longest backoff delay. Default 8000 ms. */
  maxDelayMs?: number;
  /**
   * Longest `Retry-After` the client waits out; a longer one (the per-day order limit) is thrown
   * at once as the 429 it came with. Default 60 s.
   */
  maxRetryAfterSeconds?: number;
}

/**
 * Options of {@link createIncassoClient}.
 *
 * @example
 * const options: IncassoClientOptions = {
 *   baseUrl: "https://api.example.nl/api/v1",
 *   apiKey: process.env.INCASSO_API_KEY,
 *   timeoutMs: 120_000,
 * };
 */
export interface IncassoClientOptions {
  /** The API's base URL including the version segment, such as `https://api.example.nl/api/v1`. */
  baseUrl: string;
  /**
   * `svc_live_...` or `svc_test_...`. Optional: GET /ping and the two public tools work without one;
   * every other method then fails with 401 `unauthorized`.
   */
  apiKey?: string | undefined;
  /** The fetch to use; default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /**
   * Time-out of one attempt, answer body included. Default 120 000 ms: the spec asks clients of
   * POST /orders for at least 120 s (Limits, processing time).
   */
  timeoutMs?: number;
  /** Number of retries (default 3), or detailed {@link RetryOptions}. */
  retries?: number | RetryOptions;
  /** Called with every answer received, retried ones included: a place to watch rate limits. */
  onResponse?: (meta: ResponseMeta) => void;
}

/**
 * Per-call options of every method.
 *
 * @example
 * await client.orders.get(id, { signal: AbortSignal.timeout(5000) });
 */
export interface CallOptions {
  /** Aborts the call, including a wait between retries; the call rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Per-call options of `orders.create` and `creditors.create`.
 *
 * @example
 * await client.orders.create(body, { idempotencyKey: `invoice-run-2026-11-25-${customer}` });
 */
export interface CreateCallOptions extends CallOptions {
  /**
   * The Idempotency-Key (1 to 255 visible ASCII characters). Default: a random UUID per call.
   * Pass your own, stored before the call, to make a retry after a crash of your own process safe.
   */
  idempotencyKey?: string;
}

/**
 * Per-call options of `orders.hold`, `orders.withdraw` and `orders.reportPayment`.
 *
 * @example
 * await client.orders.hold(orderId, { reason: "Regeling" }, { idempotencyKey: `hold-${orderId}-2026-11-28` });
 */
export interface ControlCallOptions extends CallOptions {
  /**
   * The Idempotency-Key (1 to 255 visible ASCII characters). Default: a random UUID per call, so
   * the client's own retries place no second task. Pass your own, stored before the call, to make
   * a retry after a crash of your own process safe; the same key on another order or for another
   * control request is refused with 409 `idempotency_conflict`.
   */
  idempotencyKey?: string;
}

/**
 * A typed client of the incasso API. Requests and results are the spec's snake_case wire objects;
 * every result carries a non-enumerable `$response` ({@link ResponseMeta}).
 *
 * @example
 * const client = createIncassoClient({ baseUrl, apiKey });
 * const order = await client.orders.create(body);
 * const status = await client.orders.get(order.id);
 */
export interface IncassoClient {
  orders: {
    /** POST /orders, with an Idempotency-Key and safe retries. */
    create(body: CreateOrder, options?: CreateCallOptions): Promise<WithResponse<Order>>;
    /** GET /orders: one page. */
    list(query?: ListOrdersQuery, options?: CallOptions): Promise<WithResponse<OrderList>>;
    /** Every order matching `query`, newest first, fetching pages as the loop goes on. */
    all(query?: ListOrdersQuery, options?: CallOptions): AsyncIterableIterator<OrderListItem>;
    /** GET /orders/{orderId}. */
    get(orderId: string, options?: CallOptions): Promise<WithResponse<OrderStatus>>;
    /** POST /orders/{orderId}/hold, with an Idempotency-Key and safe retries. */
    hold(
      orderId: string,
      body?: HoldRequest,
      options?: ControlCallOptions,
    ): Promise<WithResponse<OrderAction>>;
    /** POST /orders/{orderId}/withdraw, with an Idempotency-Key and safe retries. */
    withdraw(
      orderId: string,
      body?: WithdrawRequest,
      options?: ControlCallOptions,
    ): Promise<WithResponse<OrderAction>>;
    /** POST /orders/{orderId}/payments, with an Idempotency-Key and safe retries. */
    reportPayment(
      orderId: string,
      body: PaymentReport,
      options?: ControlCallOptions,
    ): Promise<WithResponse<OrderAction>>;
  };
  creditors: {
    /** GET /creditors (creditor management must be on for the key). */
    list(query?: ListCreditorsQuery, options?: CallOptions): Promise<WithResponse<CreditorList>>;
    /** POST /creditors, with an Idempotency-Key and safe retries. */
    create(body: CreateCreditorRequest, options?: CreateCallOptions): Promise<WithResponse<Creditor>>;
  };
  tools: {
    /** POST /tools/wik: collection costs and statutory interest. No key needed. */
    wik(body: WikRequest, options?: CallOptions): Promise<WithResponse<WikCalculation>>;
    /** POST /tools/rol-router: court and hearing days for a place of residence. No key needed. */
    rolRouter(body: RolRouterRequest, options?: CallOptions): Promise<WithResponse<RolRouterResult>>;
  };
  /** GET /ping: with a key, tells whose key it is. */
  ping(options?: CallOptions): Promise<WithResponse<PingResponse>>;
}

function retrySettings(retries: IncassoClientOptions["retries"]): RetrySettings {
  const given = typeof retries === "number" ? { max: retries } : (retries ?? {});
  const settings: RetrySettings = {
    max: given.max ?? 3,
    baseDelayMs: given.baseDelayMs ?? 500,
    maxDelayMs: given.maxDelayMs ?? 8000,
    maxRetryAfterSeconds: given.maxRetryAfterSeconds ?? 60,
  };
  for (const [name, value] of Object.entries(settings)) {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`retries.${name} must be a number >= 0.`);
  }
  settings.max = Math.floor(settings.max);
  return settings;
}

function orderPath(orderId: string, action?: string): string {
  return `/orders/${encodeURIComponent(orderId)}${action ? `/${action}` : ""}`;
}

/**
 * Creates a client of the incasso API on `fetch` (Node ≥ 20.19, browsers, Deno, Bun, workers).
 *
 * `orders.create`, `creditors.create` and the control requests (hold, withdraw, payments) send an
 * Idempotency-Key (a random UUID unless you pass one) and retry with the same key after a lost
 * answer, a 5xx other than 501, a 429 (after `Retry-After`) and 409 `idempotency_in_progress`, so a
 * lost answer never makes a second order or a second task. Reads and the tools retry the same
 * failures but 409.
 *
 * @example
 * import { createIncassoClient, isIncassoApiError } from "@incasso/client";
 *
 * const client = createIncassoClient({ baseUrl: "http://127.0.0.1:3000/api/v1", apiKey: "svc_test_..." });
 * const order = await client.orders.create({
 *   type: "pre-incasso",
 *   debtors: [{ type: "business", company_name: "Voorbeeld B.V.", address: { street: "Teststraat", house_number: "10", postal_code: "9999 ZZ", city: "Testdorp" } }],
 *   invoices: [{ invoice_number: "F-1", invoice_date: "2026-09-01", payment_term_days: 14, amount_cents: 125000 }],
 * });
 * console.log(order.id, order.case.case_number, order.$response.rateLimit?.remaining);
 */
export function createIncassoClient(options: IncassoClientOptions): IncassoClient {
  if (typeof options?.baseUrl !== "string" || !/^https?:\/\//i.test(options.baseUrl)) {
    throw new TypeError("baseUrl must be an absolute http(s) URL, such as https://api.example.nl/api/v1.");
  }
  const timeoutMs = options.timeoutMs ?? 120_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError("timeoutMs must be a number > 0.");
  const settings: ClientSettings = {
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    apiKey: options.apiKey,
    fetch: options.fetch,
    timeoutMs,
    retry: retrySettings(options.retries),
    onResponse: options.onResponse,
  };

  const listOrders = (query: ListOrdersQuery = {}, call: CallOptions = {}) =>
    send<OrderList>(settings, {
      method: "GET",
      path: "/orders",
      query,
      auth: true,
      retryClass: "safe",
      signal: call.signal,
    });

  // The API keeps a control request's answer under its Idempotency-Key and places its task once
  // (docs/decisions/orders-control-idempotency.md), so it is retried as the creates are.
  const control = <B>(orderId: string, action: string, body: B, call: ControlCallOptions = {}) =>
    send<OrderAction>(settings, {
      method: "POST",
      path: orderPath(orderId, action),
      body,
      auth: true,
      retryClass: "keyed",
      idempotencyKey: call.idempotencyKey ?? newIdempotencyKey(),
      signal: call.signal,
    });

  return {
    orders: {
      create: (body, call = {}) =>
        send<Order>(settings, {
          method: "POST",
          path: "/orders",
          body,
          auth: true,
          retryClass: "keyed",
          idempotencyKey: call.idempotencyKey ?? newIdempotencyKey(),
          signal: call.signal,
        }),
      list: listOrders,
      async *all(query = {}, call = {}) {
        let cursor = query.cursor;
        const seen = new Set<string>();
        for (;;) {
          const page = await listOrders({ ...query, ...(cursor !== undefined ? { cursor } : {}) }, call);
          yield* page.data;
          if (!page.has_more || page.next_cursor === null) return;
          // A cursor met twice would loop forever; the API never sends one (orders-cursor.md).
          if (seen.has(page.next_cursor))
            throw new Error("GET /orders returned a cursor it had returned before.");
          seen.add(page.next_cursor);
          cursor = page.next_cursor;
        }
      },
      get: (orderId, call = {}) =>
        send<OrderStatus>(settings, {
          method: "GET",
          path: orderPath(orderId),
          auth: true,
          retryClass: "safe",
          signal: call.signal,
        }),
      // An absent body counts as {} (docs/decisions/orders-control-requests.md); sending {} keeps
      // the request one shape for every host in between.
      hold: (orderId, body = {}, call) => control(orderId, "hold", body, call),
      withdraw: (orderId, body = {}, call) => control(orderId, "withdraw", body, call),
      reportPayment: (orderId, body, call) => control(orderId, "payments", body, call),
    },
    creditors: {
      list: (query = {}, call = {}) =>
        send<CreditorList>(settings, {
          method: "GET",
          path: "/creditors",
          query,
          auth: true,
          retryClass: "safe",
          signal: call.signal,
        }),
      create: (body, call = {}) =>
        send<Creditor>(settings, {
          method: "POST",
          path: "/creditors",
          body,
          auth: true,
          retryClass: "keyed",
          idempotencyKey: call.idempotencyKey ?? newIdempotencyKey(),
          signal: call.signal,
        }),
    },
    tools: {
      // The tools are public and limited per IP address: the key is not sent.
      wik: (body, call = {}) =>
        send<WikCalculation>(settings, {
          method: "POST",
          path: "/tools/wik",
          body,
          auth: false,
          retryClass: "safe",
          signal: call.signal,
        }),
      rolRouter: (body, call = {}) =>
        send<RolRouterResult>(settings, {
          method: "POST",
          path: "/tools/rol-router",
          body,
          auth: false,
          retryClass: "safe",
          signal: call.signal,
        }),
    },
    ping: (call = {}) =>
      send<PingResponse>(settings, {
        method: "GET",
        path: "/ping",
        auth: true,
        retryClass: "safe",
        signal: call.signal,
      }),
  };
}
