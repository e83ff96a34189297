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
  if (value === undefined) return out;
  if (value === null || typeof value !== "object") {
    out.push(JSON.stringify(value));
    return out;
  }
  if (Array.isArray(value)) {
    out.push("[");
    value.forEach((v, i) => {
      if (i > 0) out.push(",");
      if (v === undefined) out.push("null");
      else canonicalJsonParts(v, out);
    });
    out.push("]");
    return out;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  out.push("{");
  keys.forEach((k, i) => {
    out.push(`${i > 0 ? "," : ""}${JSON.stringify(k)}:`);
    canonicalJsonParts(record[k], out);
  });
  out.push("}");
  return out;
}
