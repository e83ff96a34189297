import { ApiError } from "./api-error.js";

/**
 * The default budget for request bodies and the attachments decoded from them, 160 MiB, for a host
 * with 2 GB of memory (decision server-body-budget): the process needs a few times the bytes it
 * holds in bodies (the bytes, their text, the parsed JSON, the decoded files and what the database
 * driver sends), next to a baseline of a few hundred MB.
 *
 * @example
 * createApi({ store, caseSystem, bodyBudgetBytes: DEFAULT_BODY_BUDGET_BYTES / 2 });
 */
export const DEFAULT_BODY_BUDGET_BYTES = 160 * 1024 * 1024;

/**
 * How long a client refused by the budget is asked to wait, in seconds (`Retry-After`): about the
 * time a large order takes to be checked and stored.
 *
 * @example
 * BODY_BUDGET_RETRY_AFTER_SECONDS; // 5
 */
export const BODY_BUDGET_RETRY_AFTER_SECONDS = 5;

/**
 * One request's share of a {@link BodyBudget}: it grows as the body is read and goes back whole
 * when the request is answered.
 *
 * @example
 * const share = budget.open(1.75);
 * if (!share.cover(contentLength)) throw bodyBudgetExhausted();
 * share.release();
 */
export interface BodyBudgetShare {
  /**
   * Makes the share cover `bodyBytes` of body (times the share's weight). False, and nothing more
   * reserved, when the budget cannot give it.
   */
  cover(bodyBytes: number): boolean;
  /** Bytes of the budget this share holds. */
  readonly bytes: number;
  /** Gives the share back; safe to call twice. */
  release(): void;
}

/**
 * Bytes of request bodies, and of the attachments decoded from them, in flight in this process.
 *
 * @example
 * const budget = createBodyBudget(64 * 1024 * 1024);
 * budget.inUse; // 0
 */
export interface BodyBudget {
  readonly maxBytes: number;
  readonly inUse: number;
  /**
   * A share for one request. `weight` is how many budget bytes one body byte takes: 1 for a plain
   * body; 1.75 for one whose base64 attachments are decoded (base64 decodes to 3/4 of its length).
   */
  open(weight?: number): BodyBudgetShare;
}

/**
 * A budget of `maxBytes`. A share is refused when it would take the budget past `maxBytes`, except
 * when nothing else holds any: one request always proceeds, so a budget below the largest body
 * slows large requests down to one at a time and never locks them out.
 *
 * @example
 * const budget = createBodyBudget(100);
 * const a = budget.open();
 * a.cover(80); // true
 * budget.open().cover(30); // false: 110 > 100
 * a.release();
 */
export function createBodyBudget(maxBytes: number = DEFAULT_BODY_BUDGET_BYTES): BodyBudget {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
    throw new RangeError(`the body budget must be a positive number of bytes, got ${String(maxBytes)}`);
  }
  let inUse = 0;
  return {
    maxBytes,
    get inUse() {
      return inUse;
    },
    open(weight = 1) {
      let held = 0;
      let released = false;
      return {
        get bytes() {
          return held;
        },
        cover(bodyBytes) {
          if (released) return false;
          const wanted = Math.ceil(bodyBytes * weight);
          if (wanted <= held) return true;
          const more = wanted - held;
          if (inUse - held > 0 && inUse + more > maxBytes) return false;
          inUse += more;
          held = wanted;
          return true;
        },
        release() {
          if (released) return;
          released = true;
          inUse -= held;
          held = 0;
        },
      };
    },
  };
}

/**
 * The 503 of a request refused by the body budget: `server_busy` with `Retry-After` (RFC 9110
 * §15.6.4). Nothing of the request was read further or stored.
 *
 * @example
 * throw bodyBudgetExhausted();
 */
export function bodyBudgetExhausted(): ApiError {
  return new ApiError({
    status: 503,
    code: "server_busy",
    detail:
      "The server is receiving too many large requests at once; nothing was stored. Send this request again after Retry-After seconds.",
    headers: { "Retry-After": String(BODY_BUDGET_RETRY_AFTER_SECONDS) },
  });
}

/**
 * A body stream of unknown length (chunked) that the share must cover as it arrives: past it the
 * stream fails with 503 `server_busy` and the rest is not read (decision server-body-budget).
 *
 * @example
 * const body = withinBudget(request.body, budget.open());
 * await new Response(body).arrayBuffer(); // rejects with bodyBudgetExhausted() past the budget
 */
export function withinBudget(
  stream: ReadableStream<Uint8Array>,
  share: BodyBudgetShare,
): ReadableStream<Uint8Array> {
  let total = 0;
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (share.cover(total)) controller.enqueue(chunk);
        else controller.error(bodyBudgetExhausted());
      },
    }),
  );
}
