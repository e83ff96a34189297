import { IncassoApiError, IncassoConnectionError } from "../errors.js";
import type { RateLimit, ResponseMeta, WithResponse } from "../response-meta.js";
import {
  type AttemptOutcome,
  isRetryable,
  parseRetryAfter,
  type RetryClass,
  type RetrySettings,
  retryDelayMs,
  sleep,
} from "./retry-policy.js";

/** Settings of a client, resolved once by createIncassoClient. */
export interface ClientSettings {
  baseUrl: string;
  apiKey: string | undefined;
  fetch: typeof globalThis.fetch | undefined;
  timeoutMs: number;
  retry: RetrySettings;
  onResponse: ((meta: ResponseMeta) => void) | undefined;
}

/** One call to the API. */
export interface Call {
  method: "GET" | "POST";
  /** Below the base URL, starting with `/`. */
  path: string;
  query?: Record<string, string | number | undefined | null>;
  body?: unknown;
  /** Send the API key (the public tools do not need it). */
  auth: boolean;
  retryClass: RetryClass;
  idempotencyKey?: string;
  signal?: AbortSignal | undefined;
}

const TIMEOUT = Symbol("timeout");

function urlOf(settings: ClientSettings, call: Call): string {
  let url = `${settings.baseUrl}${call.path}`;
  if (call.query) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(call.query)) {
      if (value !== undefined && value !== null) params.append(name, String(value));
    }
    const text = params.toString();
    if (text) url += `?${text}`;
  }
  return url;
}

function intHeader(headers: Headers, name: string): number | null {
  const value = headers.get(name);
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : null;
}

function rateLimitOf(headers: Headers): RateLimit | null {
  const limit = intHeader(headers, "ratelimit-limit");
  const remaining = intHeader(headers, "ratelimit-remaining");
  const reset = intHeader(headers, "ratelimit-reset");
  return limit === null || remaining === null || reset === null ? null : { limit, remaining, reset };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Runs one attempt: the fetch and the reading of the body both within `timeoutMs`, both stopped
 * when the caller's signal aborts. Resolves with the answer, or rejects with TIMEOUT, the
 * caller's abort reason, or the fetch's own error (no answer).
 */
async function attempt(
  settings: ClientSettings,
  url: string,
  init: RequestInit,
  signal: AbortSignal | undefined,
): Promise<{ response: Response; text: string }> {
  // Nothing is sent for a call the caller has already given up on.
  signal?.throwIfAborted();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(TIMEOUT), settings.timeoutMs);
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const fetchImpl = settings.fetch ?? globalThis.fetch;
    const response = await fetchImpl(url, { ...init, signal: controller.signal });
    const text = await response.text();
    return { response, text };
  } catch (error) {
    if (controller.signal.aborted) throw controller.signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * Sends a call, retrying as its class allows (see retry-policy.ts), and resolves with the JSON body
 * carrying a non-enumerable `$response`. Rejects with IncassoApiError for an error answer,
 * IncassoConnectionError when no answer came, or the caller's abort reason.
 */
export async function send<T>(settings: ClientSettings, call: Call): Promise<WithResponse<T>> {
  const url = urlOf(settings, call);
  const headers: Record<string, string> = { accept: "application/json, application/problem+json" };
  if (call.auth && settings.apiKey !== undefined) headers.authorization = `Bearer ${settings.apiKey}`;
  if (call.body !== undefined) headers["content-type"] = "application/json";
  if (call.idempotencyKey !== undefined) headers["idempotency-key"] = call.idempotencyKey;
  // Serialised once: every retry must carry the same bytes, or the API sees other content under the
  // same Idempotency-Key and answers 409 idempotency_conflict.
  const init: RequestInit = {
    method: call.method,
    headers,
    ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
  };
  const idempotencyKey = call.idempotencyKey ?? null;
  for (let attempts = 1; ; attempts++) {
    let answer: { response: Response; text: string };
    try {
      answer = await attempt(settings, url, init, call.signal);
    } catch (error) {
      if (call.signal?.aborted && error === call.signal.reason) throw error;
      const timedOut = error === TIMEOUT;
      const failure = new IncassoConnectionError(
        timedOut ? "timeout" : "network_error",
        timedOut
          ? `No answer from ${call.method} ${call.path} within ${settings.timeoutMs} ms.`
          : `${call.method} ${call.path} got no answer: ${(error as Error)?.message ?? String(error)}`,
        { attempts, idempotencyKey, cause: timedOut ? undefined : error },
      );
      if (!(attempts <= settings.retry.max && isRetryable(call.retryClass, { kind: "no_answer" })))
        throw failure;
      await sleep(retryDelayMs(settings.retry, attempts - 1, null), call.signal);
      continue;
    }
    const { response, text } = answer;
    const meta: ResponseMeta = {
      status: response.status,
      requestId: response.headers.get("x-request-id"),
      rateLimit: rateLimitOf(response.headers),
      idempotencyKey,
      replayed: response.headers.get("idempotency-replayed") === "true",
      attempts,
      headers: response.headers,
    };
    // Outside the try above: an exception of the caller's hook is the caller's, never a lost answer.
    settings.onResponse?.(meta);
    const body = parseJson(text);
    if (response.ok) {
      if (!isObject(body)) {
        throw new IncassoApiError(
          { code: "unexpected_response", detail: "The answer was not a JSON object." },
          meta,
          null,
        );
      }
      Object.defineProperty(body, "$response", { value: meta, enumerable: false });
      return body as WithResponse<T>;
    }
    const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
    const failure = new IncassoApiError(isObject(body) ? body : {}, meta, retryAfter);
    const outcome: AttemptOutcome = { kind: "answer", status: response.status, code: failure.code };
    const mayRetry =
      attempts <= settings.retry.max &&
      isRetryable(call.retryClass, outcome) &&
      (retryAfter === null || retryAfter <= settings.retry.maxRetryAfterSeconds);
    if (!mayRetry) throw failure;
    await sleep(retryDelayMs(settings.retry, attempts - 1, retryAfter), call.signal);
  }
}
