/**
 * The exit codes of the `incasso` CLI (decision cli-exit-codes). Scripts may rely on them.
 *
 * | code | name | when |
 * |---|---|---|
 * | 0 | ok | the command did what was asked |
 * | 1 | failure | anything else: the database, a webhook attempt that failed, a data directory in use |
 * | 2 | usage | the command line: unknown command or flag, a missing or refused value, bare `incasso` |
 * | 3 | not_found | what the command names does not exist (key, case, task, event, organisation, …) |
 * | 4 | conflict | it exists but its state refuses the command (a task already resolved, a letter job running, …) |
 *
 * @example
 * process.exitCode = EXIT_CODES.usage;
 */
export const EXIT_CODES = { ok: 0, failure: 1, usage: 2, not_found: 3, conflict: 4 } as const;

/** The codes of the API's problems that mean "no such thing" (404). */
const NOT_FOUND = new Set([
  "not_found",
  "key_not_found",
  "organisation_not_found",
  "udf_field_not_found",
  "case_not_found",
  "task_not_found",
  "letter_not_found",
  "letter_job_not_found",
  "operator_not_found",
  "webhook_endpoint_not_found",
  "webhook_event_not_found",
]);

/** The codes that mean "it exists, but its state refuses this" (409). */
const CONFLICT = new Set([
  "creditor_exists",
  "organisation_conflict",
  "task_not_open",
  "letter_job_running",
  "delivery_in_progress",
  "nothing_outstanding",
  "letter_details_missing",
]);

/** The codes of a value given on the command line that the operation refused (422). */
const REFUSED_VALUE = new Set([
  "validation_error",
  "invalid_key_settings",
  "invalid_udf_field",
  "invalid_status",
  "invalid_payment",
  "invalid_task",
  "invalid_webhook_url",
  "invalid_webhook_secret",
  "invalid_webhook_event",
  "invalid_request",
  "invalid_cursor",
  "invalid_operator",
  "invalid_letter_details",
]);

/**
 * An error as the CLI prints it with `--json`: the API's problem shape (RFC 9457) with the same
 * `code`, plus the process's `exit_code`.
 *
 * @example
 * const p: CliProblem = { type: "https://incasso.dev/problems/key_not_found", title: "Not Found", status: 404, code: "key_not_found", detail: "No API key with id key_0.", exit_code: 3 };
 */
export interface CliProblem {
  type: string;
  title: string;
  status: number;
  code: string;
  detail: string;
  exit_code: number;
}

const TITLES: Record<number, string> = {
  400: "Bad Request",
  404: "Not Found",
  409: "Conflict",
  422: "Unprocessable Content",
  500: "Internal Server Error",
};

/**
 * The problem and exit code of an error thrown by a command. The code is the error's own stable
 * `code` (the API's problem codes), `usage_error` for the command line, `internal_error` when the
 * error has none.
 *
 * @example
 * cliProblem(Object.assign(new Error("No case 2026-000009."), { code: "case_not_found" })).exit_code; // 3
 */
export function cliProblem(error: unknown): CliProblem {
  const own = (error as { code?: unknown } | null)?.code;
  const code = typeof own === "string" && /^[a-z][a-z0-9_]*$/.test(own) ? own : "internal_error";
  const [status, exitCode] = NOT_FOUND.has(code)
    ? [404, EXIT_CODES.not_found]
    : CONFLICT.has(code)
      ? [409, EXIT_CODES.conflict]
      : code === "usage_error"
        ? [400, EXIT_CODES.usage]
        : REFUSED_VALUE.has(code)
          ? [422, EXIT_CODES.usage]
          : [500, EXIT_CODES.failure];
  return {
    // The same type URIs as the API (decision server-problem-types).
    type: `https://incasso.dev/problems/${code}`,
    title: TITLES[status] ?? "Error",
    status,
    code,
    detail: error instanceof Error ? error.message : String(error),
    exit_code: exitCode,
  };
}
