// The host's implementation of the CaseSystem port (@incasso/core): every call of the port becomes
// a JSON request to the agency's case service (case-service.mjs), with a time-out per attempt and
// retries. Retrying is safe because the service makes every write idempotent on the order id (with
// the item's index) or the task id, as the port requires (docs/own-case-system.md).

/** A call the case service refused or did not answer; the order engine turns it into 502. */
export class CaseServiceError extends Error {
  /**
   * @param {string} message
   * @param {number | null} status the HTTP status, or null when no answer came
   */
  constructor(message, status) {
    super(message);
    this.name = "CaseServiceError";
    this.status = status;
  }
}

/**
 * The CaseSystem port on the case service at `baseUrl`.
 *
 * - `timeoutMs` (default 2000) bounds each attempt; `retries` (default 2) more attempts follow a
 *   time-out, a network error or a 5xx answer, after `retryDelayMs` (default 100) times the
 *   attempt's number. A 4xx answer is not retried.
 * - `placeOnCase` is one request (the service finds or opens the case and records the items in one
 *   step), so two orders for one debtor end on one case; items the service could not record come
 *   back as `failedItems` and become the warnings `debtor_address_failed` and `claim_attach_failed`.
 * - `withdrawPlacement` asks the service to undo a placement whose order incasso never stored.
 *
 * @param {{ baseUrl: string, timeoutMs?: number, retries?: number, retryDelayMs?: number }} options
 * @returns {import("@incasso/core").CaseSystem}
 */
export function createHttpCaseSystem(options) {
  const base = options.baseUrl.replace(/\/$/, "");
  const timeoutMs = options.timeoutMs ?? 2000;
  const retries = options.retries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 100;

  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   * @returns {Promise<{ status: number, body: any }>}
   */
  async function call(method, path, body) {
    let last = /** @type {CaseServiceError | undefined} */ (undefined);
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, retryDelayMs * attempt));
      let res;
      try {
        res = await fetch(`${base}${path}`, {
          method,
          headers: body === undefined ? {} : { "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        last = new CaseServiceError(`${method} ${path}: ${String(error)}`, null);
        continue;
      }
      const text = await res.text();
      if (res.status < 400 || res.status === 404) {
        return { status: res.status, body: text ? JSON.parse(text) : undefined };
      }
      last = new CaseServiceError(`${method} ${path}: HTTP ${res.status} ${text}`, res.status);
      if (res.status < 500) break;
    }
    throw last;
  }

  /** A 404 of a write means the service does not know the case: not an answer to carry on with. */
  const written = (/** @type {{ status: number, body: any }} */ answer, /** @type {string} */ what) => {
    if (answer.status === 404) throw new CaseServiceError(`${what}: ${JSON.stringify(answer.body)}`, 404);
  };

  return {
    async placeOnCase(input) {
      const answer = await call("POST", "/placements", input);
      written(answer, "placement");
      const { case_number, case_new, other_open_cases, failed_items } = answer.body;
      const failed = failed_items.debtor_indexes.length > 0 || failed_items.invoice_indexes.length > 0;
      return {
        caseNumber: case_number,
        caseNew: case_new,
        otherOpenCases: other_open_cases,
        ...(failed
          ? {
              failedItems: {
                debtorIndexes: failed_items.debtor_indexes,
                invoiceIndexes: failed_items.invoice_indexes,
              },
            }
          : {}),
      };
    },
    async withdrawPlacement(input) {
      await call("POST", "/withdrawals", { order_id: input.orderId, organisation_id: input.organisationId });
    },
    async storeAttachment(input) {
      const answer = await call("POST", "/files", {
        order_id: input.orderId,
        case_number: input.caseNumber,
        index: input.attachmentIndex,
        filename: input.filename,
        document_type: input.documentType,
        content_base64: Buffer.from(input.bytes).toString("base64"),
      });
      written(answer, "file");
    },
    async addTask(input) {
      const answer = await call("POST", "/tasks", {
        task_id: input.taskId,
        order_id: input.orderId,
        organisation_id: input.organisationId,
        case_number: input.caseNumber,
        action: input.action,
        instructions: input.instructions,
        reason: input.reason,
        amount_cents: input.amountCents,
        payment_date: input.paymentDate,
      });
      written(answer, "task");
    },
    async caseState(query) {
      const params = new URLSearchParams({ organisation_id: query.organisationId, today: query.today });
      const answer = await call("GET", `/cases/${encodeURIComponent(query.caseNumber)}?${params}`);
      if (answer.status === 404) return undefined;
      const { case_number, status, open, balance_due_cents } = answer.body;
      return {
        caseNumber: case_number,
        status,
        open,
        ...(balance_due_cents === undefined ? {} : { balanceDueCents: balance_due_cents }),
      };
    },
  };
}
