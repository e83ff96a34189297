import { formatFieldPath } from "@incasso/core";
import { limitRequestBody } from "srvx/body-limit";
import { ApiError, isApiError, validationError } from "./api-error.js";
import { type BodyBudgetShare, bodyBudgetExhausted, withinBudget } from "./body-budget.js";
import { noteParsedWithoutEscapes } from "./internal/canonical-json.js";
import { type BadCharacter, nestsDeeperThan, pathsWithBadCharacters } from "./internal/json-checks.js";
import { nextTurn } from "./internal/next-turn.js";

/** The spec's request size limit for POST /orders: 40 MB of base64-encoded JSON (section Limits). */
export const DEFAULT_MAX_BODY_BYTES = 40 * 1024 * 1024;

/**
 * Deepest nesting of arrays and objects a JSON body may have (decision server-http-edge-cases).
 * A CreateOrder nests 4 deep; the cap keeps code that walks a body by recursion (the canonical JSON
 * of the Idempotency-Key fingerprint) from running out of stack on a few KB of brackets.
 *
 * @example
 * await readJsonBody(request); // 400 invalid_json when the body nests deeper than MAX_JSON_DEPTH
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Options for {@link readJsonBody}.
 *
 * @example
 * const opts: ReadJsonBodyOptions = { maxBytes: 1024 * 1024, optional: true };
 */
export interface ReadJsonBodyOptions {
  /** Largest body accepted, counted on the bytes as they stream in. Default 40 MB. */
  maxBytes?: number;
  /**
   * When true, an absent or empty body yields `undefined` instead of 400 `empty_body`, whatever its
   * Content-Type; a body with content still has to be JSON (415 otherwise).
   */
  optional?: boolean;
  /**
   * The request's share of the body budget (decision server-body-budget): it must cover the
   * declared Content-Length before a byte is read, and a chunked body as it arrives; otherwise 503
   * `server_busy` with `Retry-After`.
   */
  budget?: BodyBudgetShare;
}

function isJsonContentType(value: string | null): boolean {
  if (value === null) return false;
  // RFC 9110 §8.3.1: the media type is case-insensitive and may carry parameters (charset=utf-8).
  const type = value.split(";", 1)[0]?.trim().toLowerCase();
  return type === "application/json";
}

// The charset parameter of a Content-Type, lower-cased and unquoted (RFC 9110 §8.3.1, §5.6.6), or
// undefined when there is none.
function charsetOf(contentType: string): string | undefined {
  for (const parameter of contentType.split(";").slice(1)) {
    const at = parameter.indexOf("=");
    if (at < 0 || parameter.slice(0, at).trim().toLowerCase() !== "charset") continue;
    return parameter
      .slice(at + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1")
      .toLowerCase();
  }
  return undefined;
}

function unsupportedMediaType(contentType: string | null): ApiError {
  return new ApiError({
    status: 415,
    code: "unsupported_media_type",
    detail: `Content-Type must be application/json${contentType ? `, not ${contentType}` : ""}.`,
    headers: { "Accept-Post": "application/json" },
  });
}

/**
 * Refuses a body that would not be read as what it is: a content coding other than identity (the
 * API inflates nothing, and gzip bytes read as text are no JSON, or plain text labelled gzip is
 * not what the client said), and a charset other than UTF-8 (RFC 8259 §8.1: JSON between systems
 * is UTF-8; UTF-16 read as UTF-8 is garbage). Both are 415 (RFC 9110 §15.5.16), with a detail
 * that says what is accepted; for the coding also `Accept-Encoding: identity` (RFC 9110 §12.5.3).
 */
function assertReadableEncoding(request: Request, contentType: string | null): void {
  const coding = request.headers.get("content-encoding");
  if (coding !== null) {
    const codings = coding.split(",").map((c) => c.trim().toLowerCase());
    if (codings.some((c) => c !== "" && c !== "identity")) {
      throw new ApiError({
        status: 415,
        code: "unsupported_media_type",
        detail: `Content-Encoding ${coding} is not accepted: send the body uncompressed (identity).`,
        headers: { "Accept-Encoding": "identity" },
      });
    }
  }
  const charset = contentType === null ? undefined : charsetOf(contentType);
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
    throw new ApiError({
      status: 415,
      code: "unsupported_media_type",
      detail: `Content-Type must be application/json in UTF-8 (charset=utf-8 or none), not ${contentType}.`,
      headers: { "Accept-Post": "application/json" },
    });
  }
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError({
    status: 413,
    code: "payload_too_large",
    detail: `The request body is larger than ${maxBytes} bytes.`,
  });
}

/**
 * Reads the raw body through srvx's body limit (`limitRequestBody`, the one h3's `assertBodySize`
 * uses): a declared Content-Length over the limit is refused before a byte is read, and a chunked
 * body is counted as it streams in and cancelled past the limit, so an oversized body is refused
 * with 413 before it is held in memory (spec section Limits: 40 MB).
 *
 * With a share of the body budget, the declared Content-Length (or, chunked, the bytes so far) must
 * fit in it: otherwise 503 `server_busy` (decision server-body-budget).
 *
 * @example
 * const bytes = await readBodyBytes(request, 1024);
 */
export async function readBodyBytes(
  request: Request,
  maxBytes: number = DEFAULT_MAX_BODY_BYTES,
  budget?: BodyBudgetShare,
): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  // Refused before the body is read, so a busy server spends nothing on it.
  if (budget && declared !== null && !budget.cover(Number(declared) || 0)) throw bodyBudgetExhausted();
  if (request.body === null) return new Uint8Array(0);
  const limited = limitRequestBody(request, maxBytes, { createError: () => tooLarge(maxBytes) });
  try {
    // A body without Content-Length (chunked) is counted against the budget as it arrives.
    const read =
      budget && declared === null
        ? new Response(withinBudget(limited.body as ReadableStream<Uint8Array>, budget)).arrayBuffer()
        : limited.arrayBuffer();
    return new Uint8Array(await read);
  } catch (error) {
    // 413 and 503 as raised above; any other failure of the stream is the client going away or
    // breaking off mid-body. Nothing was read that could be stored, and it is no server fault.
    if (isApiError(error)) throw error;
    throw new ApiError({
      status: 400,
      code: "bad_request",
      detail: "The request body ended before it was complete.",
    });
  }
}

type NodeBufferModule = Pick<typeof import("node:buffer"), "Buffer" | "isAscii">;

// node's buffer module when the runtime has one, found without a static import so the kernel stays
// free of node built-ins (issue 15; process.getBuiltinModule exists from node 20.16).
const nodeBuffer: NodeBufferModule | undefined = (() => {
  const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
    ?.getBuiltinModule;
  const buffer = typeof get === "function" ? (get("node:buffer") as Partial<NodeBufferModule>) : undefined;
  return typeof buffer?.isAscii === "function" && typeof buffer.Buffer === "function"
    ? (buffer as NodeBufferModule)
    : undefined;
})();

// Bodies at least this large are decoded and parsed in turns of the event loop of their own.
const LARGE_BODY_BYTES = 1024 * 1024;

// Bodies at least this large take node's ASCII path when they are ASCII.
const ASCII_PATH_BYTES = 64 * 1024;

/**
 * The text of UTF-8 bytes; throws on bytes that are not UTF-8, and drops a leading BOM
 * (TextDecoder with `fatal`). An order's body is nearly all base64, so nearly always ASCII: node
 * checks that at memory speed and copies ASCII bytes into a string a few times faster than
 * TextDecoder decodes them, on the thread that answers every request (issue 22, item 5). ASCII is
 * UTF-8 with the same characters, and holds no BOM.
 */
function decodeUtf8(bytes: Uint8Array): string {
  if (nodeBuffer !== undefined && bytes.byteLength >= ASCII_PATH_BYTES && nodeBuffer.isAscii(bytes)) {
    return nodeBuffer.Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  }
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
}

/**
 * Reads a JSON request body the way the spec demands: `application/json` only, in UTF-8 and
 * without a content coding (415 `unsupported_media_type`), 400 `empty_body` for nothing, 400 `invalid_json` for bad syntax, bad
 * UTF-8 or nesting deeper than {@link MAX_JSON_DEPTH}, 413 `payload_too_large` past the limit, and
 * 422 `validation_error` (code `invalid_character`) for each string holding the NUL character or an
 * unpaired UTF-16 surrogate.
 *
 * @example
 * const body = await readJsonBody(request); // unknown: validate it with a schema next
 */
export async function readJsonBody(request: Request, options: ReadJsonBodyOptions = {}): Promise<unknown> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  const contentType = request.headers.get("content-type");
  assertReadableEncoding(request, contentType);
  if (options.optional && !isJsonContentType(contentType)) {
    // An optional body that is absent is absent whatever Content-Type came with it (curl -X POST
    // sends neither a body nor a Content-Type; RFC 9110 §8.3: the header describes content, and
    // there is none). Only real content needs to be JSON (decision orders-control-requests).
    const bytes = await readBodyBytes(request, maxBytes, options.budget);
    if (bytes.byteLength === 0) return undefined;
    throw unsupportedMediaType(contentType);
  }
  if (!isJsonContentType(contentType)) throw unsupportedMediaType(contentType);
  let bytes: Uint8Array | undefined = await readBodyBytes(request, maxBytes, options.budget);
  // Turns of the event loop between the steps over a large body (decoding, parsing, and what the
  // caller does next: validation, the Idempotency-Key fingerprint), one such step per turn for the
  // whole process, so requests that arrive meanwhile are not held behind all of them at once
  // (issue 22, item 5).
  const large = bytes.byteLength >= LARGE_BODY_BYTES;
  if (large) await nextTurn();
  let text: string;
  try {
    text = decodeUtf8(bytes);
  } catch {
    throw new ApiError({ status: 400, code: "invalid_json", detail: "The request body is not valid UTF-8." });
  }
  // The bytes may go before the text is parsed: of a 40 MB body, one copy less at the peak.
  bytes = undefined;
  if (large) await nextTurn();
  if (text.trim() === "") {
    if (options.optional) return undefined;
    throw new ApiError({ status: 400, code: "empty_body", detail: "The request body is empty." });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw new ApiError({
      status: 400,
      code: "invalid_json",
      detail: `The request body is not valid JSON: ${(e as Error).message}`,
    });
  }
  if (large) await nextTurn();
  // Without a backslash no string needs escaping, and the fingerprint of the Idempotency-Key
  // hashes long ones as they are (issue 22, item 5); the search runs at memory speed.
  if (!text.includes("\\")) noteParsedWithoutEscapes(body);
  if (nestsDeeperThan(body, MAX_JSON_DEPTH)) {
    throw new ApiError({
      status: 400,
      code: "invalid_json",
      detail: `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`,
    });
  }
  // No field takes the NUL character or an unpaired UTF-16 surrogate, and PostgreSQL cannot hold
  // either (text refuses NUL, json a lone \ud800): such a string would fail where it is stored,
  // after the work was done, and a live order as 502 "retry" where a test key got 201. Valid JSON
  // can only write them escaped (a surrogate as UTF-8 bytes already failed the decoder above), so
  // the text tells whether to look.
  // `includes` runs at memory speed; the regular expression is many times slower over a body of
  // 40 MB of base64 (which holds no backslash at all), so it runs only where an escape is.
  if (text.includes("\\u") && (text.includes("\\u0000") || ESCAPED_SURROGATE.test(text))) {
    const found = pathsWithBadCharacters(body, 20);
    if (found.length > 0) {
      throw validationError(
        found.map(({ path, character }) => ({
          field: formatFieldPath(path),
          code: "invalid_character",
          message: BAD_CHARACTER_MESSAGES[character],
        })),
      );
    }
  }
  return body;
}

// `\uD800` to `\uDFFF` written as a JSON escape, in either case; a pair is confirmed by the walk.
const ESCAPED_SURROGATE = /\\u[dD][89abcdefABCDEF]/;

const BAD_CHARACTER_MESSAGES: Record<BadCharacter, string> = {
  nul: "must not contain the NUL character (U+0000)",
  lone_surrogate: "must not contain an unpaired surrogate (U+D800 to U+DFFF)",
};
