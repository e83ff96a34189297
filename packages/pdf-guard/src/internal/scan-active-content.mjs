// The byte-level half of the active-content check (decision pdf-guard-active-content). Plain
// JavaScript because the PDF worker imports it directly, like parse-pdf.mjs; its types are in
// scan-active-content.d.mts. It complements what pdf.js reports about the document's structure:
// pdf.js gives no access to a Launch action in /OpenAction or to the action of a link, so the names
// are also looked for in the file's bytes and in its compressed object streams.

// PDF white-space characters (ISO 32000-2 §7.2.3, Table 1): NUL, TAB, LF, FF, CR, SPACE.
const WHITE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
// Delimiters end a name (ISO 32000-2 §7.2.3, Table 2).
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
// A byte that ends a name: white space or a delimiter, as a lookup table (the scan visits every
// byte of every name, so this is its inner loop).
const ENDS_NAME = new Uint8Array(256);
for (const b of [...WHITE, ...DELIMITERS]) ENDS_NAME[b] = 1;
const SLASH = 0x2f;
const HASH = 0x23;
// Readers accept the header within the first 1024 bytes (PDF Reference 1.7, Appendix H note 13),
// the window checkEnvelope uses too.
const HEADER_WINDOW = 1024;
const HEADER = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

// The names that mark active content, as they read once #xx escapes are decoded (ISO 32000-2
// §7.3.5: "/J#61vaScript" is the name JavaScript).
const NAME_KINDS = new Map([
  ["JavaScript", "javascript"],
  ["Launch", "launch"],
  ["EmbeddedFile", "embedded_file"],
  ["EmbeddedFiles", "embedded_file"],
]);
// The lengths of the names looked for (with ObjStm), to pass over every other name without
// decoding it; a name with #xx escapes is decoded whatever its length, up to MAX_NAME.
const PLAIN_LENGTHS = new Set([...NAME_KINDS.keys(), "ObjStm"].map((name) => name.length));
// Longest name worth decoding: every name of interest is shorter, also written with escapes, and
// reading stops there so a file of one endless name costs no more than its length.
const MAX_NAME = 64;

/**
 * Whether anything other than white space stands before the `%PDF-` header: a file that is also
 * an HTML page (or a script, or an image) for another program. Readers skip up to 1024 bytes there.
 *
 * @param {Uint8Array} bytes
 * @returns {boolean}
 */
export function hasBytesBeforeHeader(bytes) {
  const end = Math.min(bytes.length, HEADER_WINDOW);
  const at = indexOf(bytes, HEADER, 0, end);
  if (at <= 0) return false;
  for (let i = 0; i < at; i++) {
    if (!WHITE.has(bytes[i])) return true;
  }
  return false;
}

/**
 * Looks for the names of active content in the bytes as written, with #xx escapes decoded.
 * Adds each kind found to `found` and returns where each object stream (`/ObjStm`) name stands,
 * so the caller can look inside those streams too.
 *
 * @param {Uint8Array} bytes
 * @param {Set<string>} found
 * @returns {number[]} positions just after each /ObjStm name
 */
export function scanNames(bytes, found) {
  const objectStreams = [];
  let i = bytes.indexOf(SLASH);
  while (i >= 0 && i < bytes.length) {
    let end = i + 1;
    let escaped = false;
    while (end < bytes.length && end - i <= MAX_NAME + 1) {
      const b = bytes[end];
      if (ENDS_NAME[b] === 1) break;
      if (b === HASH) escaped = true;
      end++;
    }
    const length = end - i - 1;
    if (length > 0 && length <= MAX_NAME && (escaped || PLAIN_LENGTHS.has(length))) {
      const name = readName(bytes, i + 1, end, escaped);
      const kind = NAME_KINDS.get(name);
      if (kind !== undefined) found.add(kind);
      else if (name === "ObjStm") objectStreams.push(end);
    }
    i = bytes.indexOf(SLASH, end);
  }
  return objectStreams;
}

/**
 * Byte-level findings of one file: bytes before the header, and the names of active content in
 * the file and inside its Flate-compressed object streams (ISO 32000-2 §7.5.7), inflated up to
 * `maxInflatedBytes` in total. A stream that does not inflate is skipped.
 *
 * @param {Uint8Array} bytes
 * @param {{ maxInflatedBytes: number }} options
 * @returns {Promise<Set<string>>}
 */
export async function scanActiveContent(bytes, options) {
  const found = new Set();
  if (hasBytesBeforeHeader(bytes)) found.add("bytes_before_header");
  const objectStreams = scanNames(bytes, found);
  let budget = options.maxInflatedBytes;
  for (const after of objectStreams) {
    if (budget <= 0) break;
    const data = streamData(bytes, after);
    if (data === null) continue;
    const inflated = await inflate(data, budget);
    budget -= inflated.length;
    scanNames(inflated, found);
  }
  return found;
}

// The data of the stream whose dictionary holds the name ending at `from`: after the `stream`
// keyword and its end of line, up to `endstream` (ISO 32000-2 §7.3.8.1). The /Length is not read:
// it may be an indirect object, and inflating stops at the end of the compressed data anyway.
const STREAM = [0x73, 0x74, 0x72, 0x65, 0x61, 0x6d]; // "stream"
const ENDSTREAM = [0x65, 0x6e, 0x64, 0x73, 0x74, 0x72, 0x65, 0x61, 0x6d]; // "endstream"
// How far after the /ObjStm name the dictionary may go on before its stream starts.
const DICT_WINDOW = 4096;

function streamData(bytes, from) {
  const keyword = indexOf(bytes, STREAM, from, Math.min(bytes.length, from + DICT_WINDOW));
  if (keyword < 0) return null;
  let start = keyword + STREAM.length;
  if (bytes[start] === 0x0d) start++;
  if (bytes[start] === 0x0a) start++;
  const stop = indexOf(bytes, ENDSTREAM, start, bytes.length);
  return bytes.subarray(start, stop < 0 ? bytes.length : stop);
}

// Inflates zlib data (FlateDecode, ISO 32000-2 §7.4.4) with the runtime's DecompressionStream,
// keeping at most `limit` bytes. Damaged data yields what inflated before the damage.
async function inflate(data, limit) {
  const chunks = [];
  let size = 0;
  let stream;
  try {
    stream = new DecompressionStream("deflate");
  } catch {
    return new Uint8Array(0);
  }
  const writer = stream.writable.getWriter();
  writer.write(data).catch(() => undefined);
  writer.close().catch(() => undefined);
  const reader = stream.readable.getReader();
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = limit - size;
      const piece = value.length > room ? value.subarray(0, room) : value;
      chunks.push(piece);
      size += piece.length;
    }
  } catch {
    // Not Flate data, or damaged: keep what came out.
  } finally {
    reader.cancel().catch(() => undefined);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function readName(bytes, start, end, escaped) {
  let name = "";
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if (escaped && b === HASH && i + 2 < end && isHex(bytes[i + 1]) && isHex(bytes[i + 2])) {
      name += String.fromCharCode(Number.parseInt(String.fromCharCode(bytes[i + 1], bytes[i + 2]), 16));
      i += 2;
    } else {
      name += String.fromCharCode(b);
    }
  }
  return name;
}

function isHex(b) {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
}

function indexOf(haystack, needle, from, to) {
  let i = haystack.indexOf(needle[0], from);
  while (i >= 0 && i + needle.length <= to) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
    i = haystack.indexOf(needle[0], i + 1);
  }
  return -1;
}
