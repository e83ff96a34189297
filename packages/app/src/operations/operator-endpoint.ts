import { randomBytes, timingSafeEqual } from "node:crypto";
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { isCaseSystemError } from "@incasso/case-system";
import { isCoreError, isWebhookError, type Logger } from "@incasso/core";
import { ApiError, type ApiErrorInit, toProblemDetails } from "@incasso/server";
import { answerHttpErrors, capConnections, rawProblem } from "@incasso/server/node";
import { isSecretKeyError } from "@incasso/store-sql";
import { isOperatorAccountError } from "../operator-accounts/operator-accounts.js";
import { OPERATOR_FILE, type OperatorEndpointInfo } from "./operator-file.js";
import { isOperatorInputError } from "./operator-input.js";
import { type OperatorOperations, operationEntry, operationNamed } from "./operator-registry.js";

export { OPERATOR_FILE, type OperatorEndpointInfo } from "./operator-file.js";

/**
 * A running operator endpoint.
 *
 * @example
 * const endpoint = await startOperatorEndpoint({ operations, dataDir: ".data" });
 * await endpoint.close();
 */
export interface OperatorEndpoint {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Caps and time-outs of the operator endpoint (docs/decisions/operator-endpoint.md). Every field
 * is optional; the defaults suit one CLI on the same machine. The endpoint shares the process, its
 * open files and its event loop with the API, so it is held to less than the API.
 *
 * @example
 * const limits: OperatorEndpointLimits = { maxConnections: 8 };
 */
export interface OperatorEndpointLimits {
  /** Open connections at most; one more gets 503 `server_busy` and is closed. Default 32. */
  maxConnections?: number;
  /** Longest the request line and headers may take, in ms; then 408 and closed. Default 5 000. */
  headersTimeoutMs?: number;
  /** Longest the whole request (headers and body) may take to arrive, in ms. Default 30 000. */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open, in ms. Default 2 000. */
  keepAliveTimeoutMs?: number;
  /** Largest body, in bytes; a larger one gets 413 `payload_too_large`. Default 65 536. */
  maxBodyBytes?: number;
}

/**
 * The defaults of {@link OperatorEndpointLimits}.
 *
 * @example
 * DEFAULT_OPERATOR_ENDPOINT_LIMITS.maxConnections; // 32
 */
export const DEFAULT_OPERATOR_ENDPOINT_LIMITS: Readonly<Required<OperatorEndpointLimits>> = Object.freeze({
  maxConnections: 32,
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 2_000,
  maxBodyBytes: 64 * 1024,
});

function resolveLimits(limits: OperatorEndpointLimits = {}): Required<OperatorEndpointLimits> {
  const resolved: Required<OperatorEndpointLimits> = { ...DEFAULT_OPERATOR_ENDPOINT_LIMITS };
  for (const key of Object.keys(DEFAULT_OPERATOR_ENDPOINT_LIMITS) as (keyof OperatorEndpointLimits)[]) {
    const value = limits[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(`${key} must be a positive integer, got ${String(value)}`);
    }
    resolved[key] = value;
  }
  // node refuses a headers time-out longer than the request time-out.
  if (resolved.headersTimeoutMs > resolved.requestTimeoutMs) {
    throw new RangeError("headersTimeoutMs must not exceed requestTimeoutMs");
  }
  return resolved;
}

/** An answer that is not a result: its status, stable code and detail (RFC 9457). */
type Problem = Required<Pick<ApiErrorInit, "status" | "code" | "detail">>;

// The body of every refusal is the API's problem (RFC 9457), so the CLI and a script read the
// endpoint as they read the API.
const problemBody = (problem: Problem): string => JSON.stringify(toProblemDetails(new ApiError(problem)));

const BUSY: Problem = {
  status: 503,
  code: "server_busy",
  detail: "The operator endpoint has too many open connections. Try again shortly.",
};

/** The body did not fit in the limit. */
const TOO_LARGE = Symbol("too large");

// Reads the body up to `max` bytes; past it, stops keeping what arrives and reports TOO_LARGE, so
// a body of any size costs at most `max` bytes of memory.
function readBody(req: IncomingMessage, max: number): Promise<Buffer | typeof TOO_LARGE> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > max) {
        over = true;
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    });
    req.once("end", () => {
      if (!over) resolve(Buffer.concat(chunks));
    });
    req.once("error", reject);
    // A connection that went before the body ended (the client gave up, the request time-out).
    req.once("close", () => reject(new Error("the connection closed before the body ended")));
  });
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(header ?? "");
  // Constant time, so the token cannot be found a byte at a time.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// A refusal with a stable code of the domain (a missing case, a task no longer open): the
// caller's to read, with its message.
function isDomainRefusal(error: unknown): error is Error & { code: string } {
  return (
    isCoreError(error) ||
    isWebhookError(error) ||
    isCaseSystemError(error) ||
    isSecretKeyError(error) ||
    isOperatorAccountError(error)
  );
}

/**
 * What one request to the endpoint gets: a result (200 `{ result }`, nothing sent as null) or a
 * problem. Every failure is a problem; none escapes.
 */
async function answer(
  req: IncomingMessage,
  context: { token: string; operations: OperatorOperations; limits: Required<OperatorEndpointLimits> },
): Promise<{ result: unknown } | Problem> {
  if (!tokenMatches(req.headers.authorization, context.token)) {
    return { status: 401, code: "unauthorized", detail: "The operator token is missing or wrong." };
  }
  const name = /^\/operator\/([a-z-]+)$/.exec(req.url ?? "")?.[1];
  if (req.method !== "POST" || name === undefined) {
    return { status: 404, code: "not_found", detail: "No such operation." };
  }
  const method = operationNamed(name);
  if (method === undefined) return { status: 404, code: "not_found", detail: `No operation ${name}.` };
  const tooLarge: Problem = {
    status: 413,
    code: "payload_too_large",
    detail: `The body is larger than ${context.limits.maxBodyBytes} bytes.`,
  };
  // A declared length over the limit is refused before a byte of the body is read (RFC 9110
  // §15.5.14).
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > context.limits.maxBodyBytes) return tooLarge;
  let bytes: Buffer | typeof TOO_LARGE;
  try {
    bytes = await readBody(req, context.limits.maxBodyBytes);
  } catch {
    // Nobody is left to read the answer; it is sent all the same, to a closed socket.
    return { status: 400, code: "bad_request", detail: "The body could not be read to its end." };
  }
  if (bytes === TOO_LARGE) return tooLarge;
  let body: unknown = {};
  const text = bytes.toString("utf8");
  if (text.trim() !== "") {
    try {
      body = JSON.parse(text);
    } catch {
      return { status: 400, code: "invalid_json", detail: "The body is not valid JSON." };
    }
  }
  const entry = operationEntry(method);
  let input: unknown;
  try {
    input = entry.input(body);
  } catch (error) {
    // The body's JSON types are wrong for the operation: well-formed, but not what it takes
    // (RFC 9110 §15.5.21).
    if (isOperatorInputError(error)) return { status: 422, code: error.code, detail: error.message };
    throw error;
  }
  try {
    const run = context.operations[method] as (...args: unknown[]) => Promise<unknown>;
    return { result: (await run(...entry.args(input))) ?? null };
  } catch (error) {
    if (isOperatorInputError(error) || isDomainRefusal(error)) {
      return { status: 422, code: error.code, detail: error.message };
    }
    throw error;
  }
}

const INTERNAL: Problem = {
  status: 500,
  code: "internal_error",
  detail: "The server could not carry out the operation. Its log has the cause.",
};

function send(res: ServerResponse, outcome: { result: unknown } | Problem): void {
  if (res.headersSent || res.destroyed) return;
  if ("result" in outcome) {
    const body = JSON.stringify({ result: outcome.result });
    res.writeHead(200, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      "cache-control": "no-store",
    });
    res.end(body);
    return;
  }
  const body = problemBody(outcome);
  const headers: Record<string, string | number> = {
    "content-type": "application/problem+json",
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
  };
  // A refusal before the body was read (the token, the path, a body too large): what is left of it
  // is not read, so the connection is closed after the answer.
  const unread = !res.req.complete;
  if (unread) headers.connection = "close";
  res.writeHead(outcome.status, headers);
  res.end(body);
  if (unread) {
    // What still arrives is discarded until the socket closes, so the answer is not lost to a
    // reset; the socket goes a moment after the answer left.
    res.req.resume();
    const socket = res.req.socket;
    res.once("finish", () => setTimeout(() => socket.destroy(), 1000).unref());
  }
}

/**
 * Starts the operator endpoint of a running server on the embedded store: HTTP on 127.0.0.1 only,
 * on a port the system picks, behind a random 256-bit token. Its URL and token go into
 * `operator.json` in the data directory with mode 0600, so only a user who can read the data
 * directory can reach it, and the CLI works while the server holds the lock
 * (docs/decisions/operator-endpoint.md).
 *
 * It is guarded as the API is (issue 28): a connection cap (503 `server_busy` over it, a warning
 * logged), header, request and keep-alive time-outs, a body limit kept while reading, and every
 * refusal as `application/problem+json`: 400 `invalid_json`, 401 `unauthorized`, 404
 * `not_found`, 413 `payload_too_large`, 422 `validation_error` or the domain's own code, and 500
 * `internal_error` (cause logged, never sent) only for a fault of the server.
 *
 * @example
 * const endpoint = await startOperatorEndpoint({ operations: directOperations(store), dataDir: ".data", logger });
 */
export async function startOperatorEndpoint(options: {
  operations: OperatorOperations;
  dataDir: string;
  logger?: Logger;
  limits?: OperatorEndpointLimits;
}): Promise<OperatorEndpoint> {
  const limits = resolveLimits(options.limits);
  const { logger } = options;
  const token = randomBytes(32).toString("base64url");
  const context = { token, operations: options.operations, limits };
  const server: Server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // node checks both time-outs on this interval (default 30 s, which would let an idle
      // connection outlive its headers time-out by half a minute).
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    (req, res) => {
      answer(req, context).then(
        (outcome) => send(res, outcome),
        (error: unknown) => {
          logger?.error("operator endpoint: the operation failed", {
            url: req.url,
            error: error instanceof Error ? error.message : String(error),
          });
          send(res, INTERNAL);
        },
      );
    },
  );
  capConnections(server, limits.maxConnections, {
    refusal: () => rawProblem(BUSY.status, BUSY.code, BUSY.detail, { "Retry-After": "1" }),
    onFull: (open) =>
      logger?.warn("operator endpoint: connection cap reached; further connections are refused", {
        max_connections: limits.maxConnections,
        open,
      }),
  });
  // What node refuses before a handler runs (a malformed request line, headers too large, its own
  // time-outs, an Expect other than 100-continue) is answered with problem+json as well.
  answerHttpErrors(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const file = join(options.dataDir, OPERATOR_FILE);
  const info: OperatorEndpointInfo = { url, token, pid: process.pid };
  // Written under another name with mode 0600, then renamed: no reader ever sees a partial file.
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(info)}\n`, { mode: 0o600 });
  renameSync(temp, file);
  return {
    url,
    async close() {
      rmSync(file, { force: true });
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
