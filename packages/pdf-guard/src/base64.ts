import { fromBase64 } from "./internal/to-base64.js";

/**
 * Result of {@link decodeBase64Strict}.
 *
 * @example
 * const r: Base64DecodeResult = { ok: false, code: "invalid_base64", message: "..." };
 */
export type Base64DecodeResult =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; code: "invalid_base64" | "base64_data_uri" | "attachment_too_large"; message: string };

const ALPHABET = /^[A-Za-z0-9+/]*$/;
const WHITESPACE = /[\t\n\r ]/g;
const BASE64_VALUES = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/**
 * Result of {@link measureBase64Strict}: the decoded size, or why the text is refused.
 *
 * @example
 * const r: Base64MeasureResult = { ok: true, size: 5, compact: "JVBERi0=" };
 */
export type Base64MeasureResult =
  | { ok: true; size: number; compact: string; bytes?: Uint8Array }
  | { ok: false; code: "invalid_base64" | "base64_data_uri" | "attachment_too_large"; message: string };

/**
 * Checks base64 text by the rules of {@link decodeBase64Strict} and returns the size it decodes
 * to, without decoding it: `3 × (length without whitespace) / 4 − padding` (RFC 4648 §4). The
 * order check sums these sizes before any file is decoded. `compact` is the text without
 * whitespace, ready for {@link decodeMeasured}.
 *
 * @example
 * measureBase64Strict("JVBE\nRi0="); // { ok: true, size: 5, compact: "JVBERi0=" }
 */
export function measureBase64Strict(
  text: string,
  maxBytes: number = Number.MAX_SAFE_INTEGER,
): Base64MeasureResult {
  if (/^\s*data:/i.test(text.slice(0, 64))) {
    return {
      ok: false,
      code: "base64_data_uri",
      message: "Send the base64 text without a data: prefix.",
    };
  }
  const compact = withoutWhitespace(text);
  if (compact.length === 0) {
    return { ok: false, code: "invalid_base64", message: "The base64 text is empty." };
  }
  if (compact.length % 4 !== 0) {
    return {
      ok: false,
      code: "invalid_base64",
      message: "The base64 text has a length that is not a multiple of 4 (missing padding?).",
    };
  }
  const padding = compact.endsWith("==") ? 2 : compact.endsWith("=") ? 1 : 0;
  const body = compact.slice(0, compact.length - padding);
  const expected = (compact.length / 4) * 3 - padding;
  // A large file that fits is decoded now, as the check of its alphabet (nodeDecodeIfValid): the
  // regular expression takes ~10 ns a character on the thread that answers every request, ten
  // times what node's decoder needs, and the bytes are kept for decodeMeasured.
  const decoded =
    expected <= maxBytes && body.length >= LARGE_TEXT
      ? nodeDecodeIfValid(compact, body, expected)
      : undefined;
  if (decoded === null || (decoded === undefined && !ALPHABET.test(body))) {
    return {
      ok: false,
      code: "invalid_base64",
      message: "The base64 text contains characters outside the standard alphabet (A-Z, a-z, 0-9, +, /, =).",
    };
  }
  const size = (compact.length / 4) * 3 - padding;
  if (size > maxBytes) {
    return {
      ok: false,
      code: "attachment_too_large",
      message: `The decoded file has ${size} bytes; at most ${maxBytes} are allowed.`,
    };
  }
  if (padding > 0) {
    // With one "=" the last character carries 2 unused bits, with "==" it carries 4.
    const last = BASE64_VALUES.indexOf(body.charAt(body.length - 1));
    const unusedMask = padding === 1 ? 0b11 : 0b1111;
    if ((last & unusedMask) !== 0) {
      return {
        ok: false,
        code: "invalid_base64",
        message: "The base64 text is not canonical: the unused bits before the padding are not zero.",
      };
    }
  }
  return decoded ? { ok: true, size, compact, bytes: decoded } : { ok: true, size, compact };
}

// Whether the text holds ASCII whitespace. Four searches for one character run at memory speed;
// the regular expression /[\t\n\r ]/ took ten times as long over megabytes of base64, on the
// thread that answers every request (issue 22, item 5).
function hasWhitespace(text: string): boolean {
  return text.includes("\n") || text.includes("\r") || text.includes(" ") || text.includes("\t");
}

// The text without ASCII whitespace. Line breaks as MIME writes them (CRLF, or LF; RFC 2045 §6.8)
// are removed as strings first, about twice as fast as the regular expression; anything left
// (tabs, spaces, a lone CR) takes the regular expression.
function withoutWhitespace(text: string): string {
  if (!hasWhitespace(text)) return text;
  let out = text.includes("\r\n") ? text.replaceAll("\r\n", "") : text;
  if (out.includes("\n")) out = out.replaceAll("\n", "");
  return hasWhitespace(out) ? out.replace(WHITESPACE, "") : out;
}

// Texts shorter than this are checked by the regular expression: too short to matter.
const LARGE_TEXT = 64 * 1024;

/**
 * The bytes of `compact` when every character is of the standard alphabet, null when one is not,
 * undefined without node's Buffer. node's decoder skips characters outside its alphabet, so the
 * decoded length falls short of the one the text's length promises whenever one is there (one
 * skipped character costs at least one byte at every length a multiple of 4); its alphabet also
 * takes `-` and `_` of the URL-safe one (RFC 4648 §5), which are looked for first.
 */
function nodeDecodeIfValid(compact: string, body: string, expected: number): Uint8Array | null | undefined {
  const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;
  if (NodeBuffer === undefined) return undefined;
  if (body.includes("-") || body.includes("_") || body.includes("=")) return null;
  // Decoded straight into shared memory: the PDF worker that parses the file (pdf-worker-engine)
  // is handed these very bytes instead of a copy made on the thread that answers every request
  // (issue 22, item 5), and the caller still has them to store. Nothing writes to them afterwards.
  const shared = typeof SharedArrayBuffer === "function" ? new SharedArrayBuffer(expected) : undefined;
  if (shared === undefined) {
    const buffer = NodeBuffer.from(compact, "base64");
    if (buffer.byteLength !== expected) return null;
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  }
  const written = NodeBuffer.from(shared).write(compact, 0, expected, "base64");
  return written === expected ? new Uint8Array(shared) : null;
}

/**
 * Decodes base64 strictly (decision pdf-guard-base64):
 *
 * - the standard alphabet of RFC 4648 §4 only; the URL-safe alphabet (§5) is refused;
 * - a `data:` prefix is refused with its own code, because the spec says "base64 without a data:
 *   prefix" and the client deserves to know exactly what to drop;
 * - ASCII whitespace (space, tab, CR, LF) is ignored, as MIME encoders wrap lines (RFC 2045 §6.8);
 * - padding is required: the length without whitespace must be a multiple of 4 (RFC 4648 §3.2),
 *   and `=` may only end the text;
 * - non-canonical encodings, whose unused trailing bits are not zero, are refused (RFC 4648 §3.5
 *   allows a decoder to reject them; accepting them would let two texts decode to one file).
 *
 * The decoded size is computed before decoding ({@link measureBase64Strict}), so an oversized
 * file is refused without allocating it.
 *
 * @example
 * const r = decodeBase64Strict("JVBERi0=", 10);
 * // { ok: true, bytes: Uint8Array [37, 80, 68, 70, 45] } ("%PDF-")
 */
export function decodeBase64Strict(
  text: string,
  maxBytes: number = Number.MAX_SAFE_INTEGER,
): Base64DecodeResult {
  const measured = measureBase64Strict(text, maxBytes);
  if (!measured.ok) return measured;
  return decodeMeasured(measured);
}

/**
 * Decodes a text {@link measureBase64Strict} accepted.
 *
 * @example
 * const m = measureBase64Strict("JVBERi0=");
 * if (m.ok) decodeMeasured(m); // { ok: true, bytes: Uint8Array [37, 80, 68, 70, 45] }
 */
export function decodeMeasured(measured: { compact: string; bytes?: Uint8Array }): {
  ok: true;
  bytes: Uint8Array;
} {
  // Already decoded when measuring checked a large text's alphabet.
  return { ok: true, bytes: measured.bytes ?? fromBase64(measured.compact) };
}
