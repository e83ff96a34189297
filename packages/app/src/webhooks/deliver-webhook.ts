import { type Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { type Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { signWebhook } from "@incasso/webhook-signing";
import pkg from "../../package.json" with { type: "json" };
import { isWebhookTargetError, type LookupAll, resolveWebhookTarget } from "./resolve-webhook-target.js";

/**
 * Why an attempt failed, as a stable code stored at the start of the attempt's `error` text.
 *
 * @example
 * const code: WebhookFailureCode = "http_status";
 */
export type WebhookFailureCode =
  | "http_status"
  | "redirect_not_followed"
  | "timeout"
  | "connection_failed"
  | "private_target"
  | "dns_failed"
  | "invalid_url"
  | "no_endpoint"
  | "secret_unavailable";

/**
 * The result of one attempt: `delivered` only on a 2xx within the time-out (spec, Events,
 * Delivery).
 *
 * @example
 * const r: WebhookAttemptResult = { outcome: "failed", statusCode: 503, durationMs: 14, failure: "http_status", error: "http_status: HTTP 503" };
 */
export interface WebhookAttemptResult {
  outcome: "delivered" | "failed";
  statusCode: number | null;
  durationMs: number;
  failure: WebhookFailureCode | null;
  /** `code: detail`, null on success. */
  error: string | null;
}

/**
 * Input of {@link deliverWebhook}.
 *
 * @example
 * const input: DeliverWebhookInput = { url: "https://client.example/hook", secret: "whsec_…", payload: body,
 *   eventType: "ping", timestamp: 1795255200 };
 */
export interface DeliverWebhookInput {
  url: string;
  secret: string;
  /** The exact body, sent and signed byte for byte. */
  payload: string;
  eventType: string;
  /** Unix seconds to sign with: the time of this attempt. */
  timestamp: number;
  /** Time allowed for connecting, sending and a complete answer; default 10 000 ms. */
  timeoutMs?: number;
  /** Skip the private-network check (local development only). */
  allowPrivateTargets?: boolean;
  lookup?: LookupAll;
  /** Keep-alive agents to reuse connections. */
  agents?: { http?: HttpAgent; https?: HttpsAgent };
  /** Aborts the attempt (a dispatcher that stops at once). */
  signal?: AbortSignal;
}

/** Default time-out of one attempt: "a 2xx status within a few seconds" (spec, Events, Delivery). */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** Bytes of an answer we read before we stop listening; only the status matters. */
const MAX_ANSWER_BYTES = 64 * 1024;
const USER_AGENT = `incasso-webhooks/${pkg.version}`;

function excerpt(text: string): string {
  // Control characters and long answers stay out of the operator's listing.
  let clean = "";
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    clean += code < 0x20 || code === 0x7f ? " " : ch;
  }
  clean = clean.replace(/ +/g, " ").trim();
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}

/**
 * One delivery attempt: checks the target (private ranges, after resolving; the connection is
 * pinned to the checked address), signs the payload with `@incasso/webhook-signing` at this
 * attempt's time, and POSTs it. Redirects are not followed: a 3xx is a failure, because following
 * one would send the event (and let the receiver steer us) somewhere the operator never registered.
 * Never throws for a failed attempt; the result says what happened.
 *
 * @example
 * const result = await deliverWebhook({ url, secret, payload, eventType: "ping", timestamp: Math.floor(Date.now() / 1000) });
 * if (result.outcome === "delivered") console.log("HTTP", result.statusCode);
 */
export async function deliverWebhook(input: DeliverWebhookInput): Promise<WebhookAttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (failure: WebhookFailureCode, detail: string, statusCode: number | null = null) => ({
    outcome: "failed" as const,
    statusCode,
    durationMs: elapsed(),
    failure,
    error: `${failure}: ${detail}`,
  });
  const timeoutMs = input.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const stopped = () => failed("connection_failed", "the dispatcher stopped during the attempt");
  if (input.signal?.aborted) return stopped();
  // The time-out and the dispatcher's stop cover the host-name lookup too (decision
  // webhooks-outbox-and-leases: an attempt never outlasts its time-out, which the lease relies on).
  // The system resolver cannot be cancelled; a late answer is ignored.
  let target: Awaited<ReturnType<typeof resolveWebhookTarget>>;
  try {
    const resolved = await withinAttempt(
      resolveWebhookTarget(input.url, {
        ...(input.allowPrivateTargets ? { allowPrivateTargets: true } : {}),
        ...(input.lookup ? { lookup: input.lookup } : {}),
      }),
      timeoutMs,
      input.signal,
    );
    if (resolved === "timeout") {
      return failed("timeout", `the host name was not resolved within ${timeoutMs} ms`);
    }
    if (resolved === "aborted") return stopped();
    target = resolved.value;
  } catch (error) {
    if (isWebhookTargetError(error)) return failed(error.code, error.message);
    throw error;
  }
  const headers = {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(input.payload)),
    "user-agent": USER_AGENT,
    ...signWebhook({
      body: input.payload,
      secret: input.secret,
      timestamp: input.timestamp,
      eventType: input.eventType,
    }),
  };
  const pinned: LookupFunction | undefined =
    target.address === undefined
      ? undefined
      : (_hostname, options, callback) => {
          const { address, family } = target as { address: string; family: 4 | 6 };
          // Node asks for every address when it races IPv4 and IPv6 (autoSelectFamily).
          if ((options as { all?: boolean }).all) {
            (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
              { address, family },
            ]);
          } else callback(null, address, family);
        };
  const https = target.url.protocol === "https:";
  return new Promise<WebhookAttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: WebhookAttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      input.signal?.removeEventListener("abort", onAbort);
      resolve(result);
    };
    const request = (https ? httpsRequest : httpRequest)(target.url, {
      method: "POST",
      headers,
      ...(pinned ? { lookup: pinned } : {}),
      ...(https ? { agent: input.agents?.https } : { agent: input.agents?.http }),
    });
    // What is left of the attempt's time after the lookup.
    const timer = setTimeout(
      () => {
        request.destroy();
        finish(failed("timeout", `no complete answer within ${timeoutMs} ms`));
      },
      Math.max(1, timeoutMs - elapsed()),
    );
    const onAbort = () => {
      request.destroy();
      finish(stopped());
    };
    input.signal?.addEventListener("abort", onAbort, { once: true });
    request.on("error", (error: Error & { code?: string }) => {
      finish(failed("connection_failed", `${error.code ?? error.name}: ${error.message}`));
    });
    request.on("response", (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        if (size < MAX_ANSWER_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      response.on("error", (error) => finish(failed("connection_failed", error.message, status)));
      // Success is judged once the whole answer arrived within the time-out.
      response.on("end", () => {
        const text = excerpt(Buffer.concat(chunks).toString("utf8"));
        if (status >= 200 && status < 300) {
          finish({
            outcome: "delivered",
            statusCode: status,
            durationMs: elapsed(),
            failure: null,
            error: null,
          });
        } else if (status >= 300 && status < 400) {
          const location = response.headers.location;
          finish(
            failed(
              "redirect_not_followed",
              `HTTP ${status}${location ? ` to ${excerpt(location)}` : ""}; redirects are not followed`,
              status,
            ),
          );
        } else finish(failed("http_status", `HTTP ${status}${text ? `: ${text}` : ""}`, status));
      });
    });
    request.end(input.payload);
  });
}

// Waits for `work` at most `ms` and until `signal` aborts, whichever comes first.
function withinAttempt<T>(
  work: Promise<T>,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<{ value: T } | "timeout" | "aborted"> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const timer = setTimeout(() => {
      done();
      resolve("timeout");
    }, ms);
    const onAbort = () => {
      done();
      resolve("aborted");
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        done();
        resolve({ value });
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}
