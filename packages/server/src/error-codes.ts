/**
 * One row of {@link ERROR_CODES}: the HTTP status a problem with this code has, when it is sent,
 * and where the code is defined.
 *
 * @example
 * const row: ErrorCodeEntry = { status: 404, when: "Unknown endpoint, or no such order.", source: "spec" };
 */
export interface ErrorCodeEntry {
  /** HTTP status of a problem with this code. */
  readonly status: number;
  /** When the code is sent, for the OpenAPI document. */
  readonly when: string;
  /** `spec` (section Errors) or the decision record under docs/decisions that adds the code. */
  readonly source: string;
}

/**
 * Every problem `code` the API sends, with its HTTP status: the spec's Errors table plus the codes
 * our decisions add. The problem mapper takes a code's status from here, and the OpenAPI document
 * lists the codes from here, so the two cannot disagree (issue 21, item 1).
 *
 * Codes of `errors[]` items (field codes such as `required`) are not problem codes and are not
 * listed (decision orders-field-errors).
 *
 * @example
 * ERROR_CODES.upstream_error.status; // 502
 */
export const ERROR_CODES = Object.freeze({
  invalid_json: { status: 400, when: "The body is not valid JSON.", source: "spec" },
  empty_body: { status: 400, when: "The body is empty where one is required.", source: "spec" },
  invalid_request: {
    status: 400,
    when: "A public tool's request cannot be read as a whole.",
    source: "wik-error-codes",
  },
  malformed_url: {
    status: 400,
    when: "The URL has malformed percent-encoding.",
    source: "server-problem-types",
  },
  body_not_allowed: {
    status: 400,
    when: "A GET or DELETE carries a body.",
    source: "server-problem-types",
  },
  bad_request: { status: 400, when: "The HTTP request cannot be parsed.", source: "server-problem-types" },
  unauthorized: { status: 401, when: "Key missing, invalid or revoked.", source: "spec" },
  creditor_feature_disabled: {
    status: 403,
    when: "Creditor management is not activated for the key.",
    source: "spec",
  },
  not_found: { status: 404, when: "Unknown endpoint, or order id unknown for the account.", source: "spec" },
  organisation_not_found: { status: 404, when: "No such organisation.", source: "keys-organisations" },
  key_not_found: { status: 404, when: "No such API key.", source: "keys-format-and-hashing" },
  udf_field_not_found: { status: 404, when: "No such custom-field definition.", source: "keys-udf-fields" },
  method_not_allowed: {
    status: 405,
    when: "Wrong HTTP method; the Allow header lists the allowed ones.",
    source: "spec",
  },
  request_timeout: {
    status: 408,
    when: "The request or its body arrived too slowly.",
    source: "server-slow-clients",
  },
  idempotency_conflict: {
    status: 409,
    when: "Idempotency-Key reused with different content (another body, order or control request), or for another key's request.",
    source: "spec",
  },
  idempotency_in_progress: {
    status: 409,
    when: "The first request with this Idempotency-Key still runs.",
    source: "idempotency-keys",
  },
  order_has_no_case: {
    status: 409,
    when: "Hold, withdraw or payments on an order without a case (test mode).",
    source: "orders-engine-control-requests",
  },
  test_key_on_live_order: {
    status: 409,
    when: "A test key tries to steer a live order.",
    source: "orders-engine-control-requests",
  },
  creditor_exists: {
    status: 409,
    when: "A creditor with this reference already exists in the account.",
    source: "spec",
  },
  organisation_conflict: {
    status: 409,
    when: "The organisation already exists.",
    source: "keys-organisations",
  },
  payload_too_large: { status: 413, when: "The request body is too large.", source: "spec" },
  uri_too_long: { status: 414, when: "The URL is too long.", source: "server-problem-types" },
  unsupported_media_type: { status: 415, when: "Content-Type is not application/json.", source: "spec" },
  expectation_failed: {
    status: 417,
    when: "An Expect header other than 100-continue.",
    source: "server-problem-types",
  },
  validation_error: { status: 422, when: "One or more fields invalid; see errors[].", source: "spec" },
  invalid_attachment: {
    status: 422,
    when: "PDF refused: not a PDF, damaged, or password protected.",
    source: "spec",
  },
  wik_letter_required: {
    status: 422,
    when: "`incasso` against an individual debtor without a `wik_letter` attachment.",
    source: "spec",
  },
  amount_too_high: { status: 422, when: "An invoice amount_cents above the maximum.", source: "spec" },
  unknown_creditor: {
    status: 422,
    when: "The given creditor id or reference is not found in the account.",
    source: "spec",
  },
  invalid_key_settings: { status: 422, when: "Invalid settings for an API key.", source: "keys-rate-limits" },
  invalid_udf_field: { status: 422, when: "Invalid custom-field definition.", source: "keys-udf-fields" },
  invalid_cursor: { status: 422, when: "The list cursor cannot be read.", source: "orders-cursor" },
  rate_limited: { status: 429, when: "Rate limit reached; see Retry-After.", source: "spec" },
  headers_too_large: {
    status: 431,
    when: "The request headers are too large.",
    source: "server-problem-types",
  },
  internal_error: {
    status: 500,
    when: "An unexpected failure; the detail reveals nothing.",
    source: "server-problem-types",
  },
  host_body_already_parsed: {
    status: 500,
    when: "The host framework parsed the body before the API could read it.",
    source: "server-express-body-parsed",
  },
  upstream_error: {
    status: 502,
    when: "The case system could not process the request; retry later.",
    source: "spec",
  },
  service_unavailable: {
    status: 503,
    when: "The database cannot be reached; retry after Retry-After.",
    source: "store-unavailable-503",
  },
  server_busy: {
    status: 503,
    when: "Too many connections or large bodies at once; retry after Retry-After.",
    source: "server-body-budget",
  },
  attachment_check_unavailable: {
    status: 503,
    when: "The PDF engine could not check the attachments; retry after Retry-After.",
    source: "orders-engine-pdf-engine-busy",
  },
  not_ready: {
    status: 503,
    when: "The service cannot take traffic now (GET /readyz).",
    source: "server-health-endpoints",
  },
} satisfies Record<string, ErrorCodeEntry>);

/**
 * A problem code of {@link ERROR_CODES}.
 *
 * @example
 * const code: ErrorCode = "rate_limited";
 */
export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * The HTTP status of a problem code from {@link ERROR_CODES}, or `undefined` for a code not in it.
 *
 * @example
 * statusOfCode("method_not_allowed"); // 405
 * statusOfCode("no_such_code"); // undefined
 */
export function statusOfCode(code: string): number | undefined {
  return Object.hasOwn(ERROR_CODES, code) ? ERROR_CODES[code as ErrorCode].status : undefined;
}

/**
 * The codes of {@link ERROR_CODES} with a given status, in table order.
 *
 * @example
 * codesWithStatus(405); // ["method_not_allowed"]
 */
export function codesWithStatus(status: number): ErrorCode[] {
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => ERROR_CODES[code].status === status);
}

/**
 * The description of the Problem's `code` in the OpenAPI document: every code of
 * {@link ERROR_CODES} with its status and when it is sent, and the codes a host's order rules add
 * (decision orders-host-hooks), as a Markdown table (OpenAPI 3.1 §4.8.24.1: `description` may use
 * CommonMark).
 *
 * @example
 * problemCodeDescription().split("\n")[0]; // "Machine-readable code. The API's codes:"
 */
export function problemCodeDescription(
  hostCodes: Readonly<Record<string, { status: number; when: string }>> = {},
): string {
  const rows = [
    ...(Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => ({ code, ...ERROR_CODES[code] })),
    ...Object.entries(hostCodes).map(([code, row]) => ({ code, ...row })),
  ]
    .sort((a, b) => a.status - b.status)
    .map((row) => `| \`${row.code}\` | ${row.status} | ${row.when.replaceAll("|", "\\|")} |`);
  return [
    "Machine-readable code. The API's codes:",
    "",
    "| code | status | when |",
    "|---|---|---|",
    ...rows,
  ].join("\n");
}
