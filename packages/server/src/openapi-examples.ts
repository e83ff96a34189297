import { ApiError } from "./api-error.js";
import { type ProblemDetails, toProblemDetails } from "./problem.js";

// The examples of the OpenAPI document (decision server-openapi-examples). The request examples
// are the fixtures the HTTP suites submit (test/http/orders-fixtures.ts builds its bodies from
// them), the response examples are answers the API gave to those requests on a fixed clock, and
// test/http/openapi-document.test.ts checks every example against its schema and sends every
// request example to the API, so they stay true.

/**
 * A business debtor with a fictitious address (the reserved test postal code 9999 ZZ).
 *
 * @example
 * const order = { ...EXAMPLE_ORDER_REQUEST, debtors: [EXAMPLE_BUSINESS_DEBTOR] };
 */
export const EXAMPLE_BUSINESS_DEBTOR = {
  type: "business",
  company_name: "Voorbeeld B.V.",
  customer_number: "K-1001",
  address: { street: "Teststraat", house_number: "10", postal_code: "9999zz", city: "Testdorp" },
} as const;

/**
 * A natural person as debtor, with a name infix and a house number suffix.
 *
 * @example
 * const order = { ...EXAMPLE_ORDER_REQUEST, debtors: [EXAMPLE_INDIVIDUAL_DEBTOR] };
 */
export const EXAMPLE_INDIVIDUAL_DEBTOR = {
  type: "individual",
  first_name: "Jan",
  middle_name: "de",
  last_name: "Vries",
  customer_number: "P-1",
  address: {
    street: "Teststraat",
    house_number: "12",
    house_number_suffix: "A",
    postal_code: "9999 ZZ",
    city: "Testdorp",
  },
} as const;

/**
 * A valid 3-invoice pre-incasso order against one business: the body of POST /orders.
 *
 * @example
 * await fetch(`${base}/orders`, { method: "POST", headers, body: JSON.stringify(EXAMPLE_ORDER_REQUEST) });
 */
export const EXAMPLE_ORDER_REQUEST = {
  type: "pre-incasso",
  reference: "R-2026-17",
  debtors: [EXAMPLE_BUSINESS_DEBTOR],
  invoices: [
    { invoice_number: "F-1", invoice_date: "2026-09-01", payment_term_days: 14, amount_cents: 125000 },
    { invoice_number: "F-2", invoice_date: "2026-09-15", due_date: "2026-10-15", amount_cents: 20000 },
    { invoice_number: "F-3", invoice_date: "2026-10-01", payment_term_days: 30, amount_cents: 5050 },
  ],
} as const;

const ORDER_ID = "ord_ca79063fe8a2f47e";
const CREATED_AT = "2026-11-21T10:00:00.000Z";
const CASE_NUMBER = "2026-000001";

/**
 * The clock the response examples were made on; the tool examples are computed on it too.
 *
 * @example
 * calculateWik(EXAMPLE_WIK_REQUEST, { today: EXAMPLE_DATE });
 */
export const EXAMPLE_DATE = new Date(CREATED_AT);

/**
 * Request and success-response examples per operationId: `request` is the JSON body sent, and
 * `responses` maps a status to the body the API answered.
 *
 * @example
 * OPERATION_EXAMPLES.createOrder?.request; // EXAMPLE_ORDER_REQUEST
 */
export const OPERATION_EXAMPLES: Record<string, { request?: unknown; responses: Record<number, unknown> }> = {
  ping: {
    responses: {
      200: {
        status: "ok",
        time: CREATED_AT,
        authenticated: true,
        client: { name: "Voorbeeld Incasso BV", mode: "live", creditor: "Voorbeeld Incasso BV" },
        features: { creditor_management: true },
      },
    },
  },
  getOpenApi: {
    responses: {
      200: {
        openapi: "3.1.0",
        info: { title: "incasso debt-collection order API", version: "0.0.0" },
        servers: [{ url: "/api/v1" }],
        paths: {},
      },
    },
  },
  getLiveness: { responses: { 200: { status: "ok" } } },
  getReadiness: {
    responses: {
      200: { status: "ready", checks: {}, details: {} },
      // As the readiness route makes it: the problem mapper with the checks as extensions.
      503: toProblemDetails(
        new ApiError({
          status: 503,
          code: "not_ready",
          detail: "Not ready: database failing.",
          extensions: { checks: { database: "failing" }, details: {} },
        }),
      ),
    },
  },
  calculateWik: {
    request: { amount_cents: 125000, debtor_type: "consumer", due_date: "2026-01-15", include_vat: true },
    // 200 is computed by the calculator itself on EXAMPLE_DATE (see the openapi builder's input).
    responses: {},
  },
  lookupRolRouter: {
    request: { woonplaats: "Amsterdam", naam: "de Vries" },
    responses: {},
  },
  listCreditors: {
    responses: {
      200: {
        object: "list",
        data: [
          {
            id: "cred_bd044c3613b2c735",
            object: "creditor",
            reference: "CRED-1",
            name: "Voorbeeld Verhuur B.V.",
            created_at: CREATED_AT,
          },
        ],
        has_more: false,
        next_cursor: null,
      },
    },
  },
  createCreditor: {
    request: { reference: "CRED-1", name: "Voorbeeld Verhuur B.V." },
    responses: {
      201: {
        id: "cred_bd044c3613b2c735",
        object: "creditor",
        reference: "CRED-1",
        name: "Voorbeeld Verhuur B.V.",
        created_at: CREATED_AT,
      },
    },
  },
  createOrder: {
    request: EXAMPLE_ORDER_REQUEST,
    responses: {
      201: {
        id: ORDER_ID,
        object: "order",
        mode: "live",
        type: "pre-incasso",
        reference: "R-2026-17",
        case: { case_number: CASE_NUMBER, new: true },
        debtors: [{ name: "Voorbeeld B.V.", customer_number: "K-1001" }],
        invoice_count: 3,
        total_amount_cents: 150050,
        metadata: {},
        udf_fields: {},
        warnings: [],
        created_at: CREATED_AT,
      },
    },
  },
  listOrders: {
    responses: {
      200: {
        object: "list",
        data: [
          {
            id: ORDER_ID,
            object: "order",
            mode: "live",
            type: "pre-incasso",
            reference: "R-2026-17",
            case: { case_number: CASE_NUMBER, new: true },
            debtors_summary: "Voorbeeld B.V.",
            invoice_count: 3,
            total_amount_cents: 150050,
            created_at: CREATED_AT,
          },
        ],
        has_more: false,
        next_cursor: null,
      },
    },
  },
  getOrder: {
    responses: {
      200: {
        id: ORDER_ID,
        object: "order",
        mode: "live",
        type: "pre-incasso",
        reference: "R-2026-17",
        case: { case_number: CASE_NUMBER, new: true, status: "Nieuw", open: true },
        invoice_count: 3,
        total_amount_cents: 150050,
        warnings: [],
        actions: [],
        created_at: CREATED_AT,
      },
    },
  },
  holdOrder: {
    request: { reason: "De debiteur heeft een betalingsregeling voorgesteld." },
    responses: {
      202: {
        id: ORDER_ID,
        object: "order_action",
        action: "hold",
        status: "requested",
        case: { case_number: CASE_NUMBER },
        message:
          "Het verzoek om de incasso te pauzeren is als taak in het dossier gezet voor een behandelaar.",
        created_at: CREATED_AT,
      },
    },
  },
  withdrawOrder: {
    request: { reason: "Geschil over de levering." },
    responses: {
      202: {
        id: ORDER_ID,
        object: "order_action",
        action: "withdraw",
        status: "requested",
        case: { case_number: CASE_NUMBER },
        message:
          "Het verzoek om de opdracht in te trekken is als taak in het dossier gezet; een behandelaar beoordeelt het. Intrekken kan gevolgen hebben voor de no-cure-no-pay-afspraak.",
        created_at: CREATED_AT,
      },
    },
  },
  reportPayment: {
    request: { amount_cents: 25000, payment_date: "2026-11-20", reason: "Rechtstreeks aan ons betaald." },
    responses: {
      202: {
        id: ORDER_ID,
        object: "order_action",
        action: "payments",
        status: "requested",
        case: { case_number: CASE_NUMBER },
        amount_cents: 25000,
        payment_date: "2026-11-20",
        message:
          "De gemelde betaling is als taak in het dossier gezet; een behandelaar boekt haar en berekent saldo en kosten opnieuw.",
        created_at: CREATED_AT,
      },
    },
  },
};

/**
 * The signed event POST's example body (OpenAPI `webhooks`).
 *
 * @example
 * EXAMPLE_WEBHOOK_EVENT.type; // "payment.received"
 */
export const EXAMPLE_WEBHOOK_EVENT = {
  id: "evt_3f1c9a2b7d4e8f60",
  object: "event",
  type: "payment.received",
  created_at: CREATED_AT,
  data: { order_id: ORDER_ID, case_number: CASE_NUMBER, reference: "R-2026-17", case_event: "case_payments" },
} as const;

function problem(status: number, code: string, detail: string, errors?: ApiError["errors"]): ProblemDetails {
  return toProblemDetails(new ApiError({ status, code, detail, ...(errors ? { errors } : {}) }));
}

// One problem per status, made by the mapper the API answers with, with the details the API gave
// to the fixture requests; an operation whose status means something else names its own below.
const PROBLEMS: Record<number, ProblemDetails> = {
  400: problem(
    400,
    "invalid_json",
    "The request body is not valid JSON: Expected property name or '}' in JSON at position 1",
  ),
  401: problem(401, "unauthorized", "This endpoint needs an API key: send Authorization: Bearer <API_KEY>."),
  403: problem(
    403,
    "creditor_feature_disabled",
    "Creditor management is not activated for this key; ask the operator to activate it.",
  ),
  404: problem(404, "not_found", "No such order for this key."),
  409: problem(
    409,
    "idempotency_conflict",
    'The Idempotency-Key "order-R-2026-17" was used before for a request with different content; use a new key for a new request.',
  ),
  413: problem(413, "payload_too_large", "The request body is larger than 41943040 bytes."),
  415: problem(415, "unsupported_media_type", "Content-Type must be application/json, not text/plain."),
  422: problem(422, "validation_error", "The request has 1 invalid field.", [
    { field: "reason", code: "too_big", message: "must be at most 1000 characters" },
  ]),
  429: problem(429, "rate_limited", "Rate limit of 120 requests per 60 seconds reached; retry in 42 s."),
  502: problem(
    502,
    "upstream_error",
    "The case system could not take the request; nothing was stored. Retry later.",
  ),
  503: problem(
    503,
    "attachment_check_unavailable",
    "The PDF engine is busy; nothing was stored. Retry after Retry-After seconds.",
  ),
};

const OPERATION_PROBLEMS: Record<string, Record<number, ProblemDetails>> = {
  getOrder: {
    502: problem(502, "upstream_error", "The case system could not report the case status; retry later."),
  },
  createOrder: {
    422: problem(422, "validation_error", "The order has invalid fields; see errors.", [
      { field: "invoices[0].amount_cents", code: "too_small", message: "must be at least 1" },
      {
        field: "invoices[0].due_date",
        code: "one_of_required",
        message: "give either due_date or payment_term_days",
      },
    ]),
  },
  calculateWik: {
    413: problem(413, "payload_too_large", "The request body is larger than 65536 bytes."),
    422: problem(422, "validation_error", "The request has 1 invalid field.", [
      { field: "amount_cents", code: "too_small", message: "must be at least 1" },
    ]),
    429: problem(429, "rate_limited", "Rate limit of 60 requests per 60 seconds reached; retry in 17 s."),
  },
  lookupRolRouter: {
    413: problem(413, "payload_too_large", "The request body is larger than 65536 bytes."),
    422: problem(422, "validation_error", "The request has 1 invalid field.", [
      { field: "woonplaats", code: "required", message: "is required" },
    ]),
    429: problem(429, "rate_limited", "Rate limit of 60 requests per 60 seconds reached; retry in 17 s."),
  },
  createCreditor: {
    409: problem(
      409,
      "creditor_exists",
      'A creditor with reference "CRED-1" already exists in this account.',
    ),
    422: problem(422, "validation_error", "The request has 1 invalid field.", [
      { field: "name", code: "required", message: "is required" },
    ]),
  },
  listCreditors: {
    422: problem(422, "validation_error", "The request has 1 invalid field.", [
      { field: "limit", code: "too_big", message: "must be at most 100" },
    ]),
  },
  listOrders: {
    422: problem(422, "validation_error", "The request has 1 invalid field.", [
      { field: "limit", code: "too_big", message: "must be at most 100" },
    ]),
  },
};

/**
 * The problem+json example of one error status of an operation.
 *
 * @example
 * problemExample("createOrder", 401)?.code; // "unauthorized"
 */
export function problemExample(operationId: string, status: number): ProblemDetails | undefined {
  return OPERATION_PROBLEMS[operationId]?.[status] ?? PROBLEMS[status];
}
