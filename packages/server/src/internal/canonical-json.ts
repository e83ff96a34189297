/**
 * JSON with object keys sorted at every level, so two bodies with the same content give the same
 * text whatever order or spacing the client used.
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return "";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(",")}}`;
}

/**
 * {@link canonicalJson} as a list of pieces whose concatenation is the same text, so a caller can
 * encode a body of 40 MB piece by piece and let the event loop run between large pieces.
 *
 * @example
 * canonicalJsonParts({ b: 1, a: "x" }).join(""); // '{"a":"x","b":1}', as canonicalJson gives
 */
export function canonicalJsonParts(value: unknown, out: string[] = []): string[] {
  for (const piece of canonicalJsonPieces(value)) out.push(piece);
  return out;
}

// Strings longer than this (an attachment's base64) come in slices of this many characters.
const STRING_SLICE = 1024 * 1024;

// Bodies parsed from JSON text without a single backslash (see noteParsedWithoutEscapes).
const withoutEscapes = new WeakSet<object>();

/**
 * Notes that `value` was parsed from JSON text without a backslash: none of its strings (keys
 * included) holds a character JSON.stringify escapes. Such text cannot write a quote, a backslash
 * or a control character in a string (RFC 8259 §7 wants them escaped), nor, as valid UTF-8, a lone
 * surrogate; and those are all that JSON.stringify escapes. {@link canonicalJsonPieces} then gives
 * a long string as it is, in slices, without escaping a copy of it (issue 22, item 5).
 *
 * @example
 * const text = '{"a":"QUJD"}';
 * const body = JSON.parse(text);
 * if (!text.includes("\\")) noteParsedWithoutEscapes(body);
 */
export function noteParsedWithoutEscapes(value: unknown): void {
  if (value !== null && typeof value === "object") withoutEscapes.add(value);
}

/**
 * {@link canonicalJson} as pieces made one at a time, in order: a string of more than 1 MiB (an
 * attachment's base64) comes as slices of its escaped text, so whoever hashes the pieces holds one
 * slice at a time, never the escaped copy of a 40 MB body (issue 22, item 4), and can let the event
 * loop run between slices (item 5).
 *
 * @example
 * [...canonicalJsonPieces({ b: 1, a: "x" })].join(""); // '{"a":"x","b":1}', as canonicalJson gives
 */
export function* canonicalJsonPieces(
  value: unknown,
  plain: boolean = value !== null && typeof value === "object" && withoutEscapes.has(value),
): Generator<string, void, undefined> {
  if (value === undefined) return;
  if (typeof value === "string") {
    yield* stringPieces(value, plain);
    return;
  }
  if (value === null || typeof value !== "object") {
    yield JSON.stringify(value);
    return;
  }
  if (Array.isArray(value)) {
    yield "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ",";
      const v: unknown = value[i];
      if (v === undefined) yield "null";
      else yield* canonicalJsonPieces(v, plain);
    }
    yield "]";
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  yield "{";
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    yield `${i > 0 ? "," : ""}${JSON.stringify(k)}:`;
    yield* canonicalJsonPieces(record[k], plain);
  }
  yield "}";
}

// JSON.stringify of a string, in slices: the escapes of a string are the escapes of its slices
// joined, as long as no slice ends between the two halves of a surrogate pair (JSON.stringify
// writes a lone surrogate as \uXXXX, ES2019 well-formed JSON.stringify; UTF-8 cannot encode one),
// so such a slice takes the low half too. A `plain` string needs no escapes: its slices as they are.
function* stringPieces(text: string, plain: boolean): Generator<string, void, undefined> {
  if (text.length <= STRING_SLICE) {
    yield JSON.stringify(text);
    return;
  }
  yield '"';
  for (let at = 0; at < text.length; ) {
    let end = Math.min(at + STRING_SLICE, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    const slice = text.slice(at, end);
    yield plain ? slice : JSON.stringify(slice).slice(1, -1);
    at = end;
  }
  yield '"';
}
