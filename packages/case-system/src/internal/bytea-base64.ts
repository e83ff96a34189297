// Attachment bytes cross a driver that has no binary path for them (PGlite) as base64 text, turned
// into bytea by the database itself (decode/encode are built into PostgreSQL). PGlite's own bytea
// serializer builds one string per byte (`Array.from(bytes).map(...)`): for a 25 MiB order that
// held the event loop for seconds and took hundreds of MB of short-lived strings, on the thread
// that answers every request (issue 22, item 5). node's Buffer writes and reads base64 in native
// code. node-postgres sends a Buffer in binary (Executor.binaryBytes), which needs no text at all.

/**
 * The bytes as base64 text, for `decode($n::text, 'base64')`.
 *
 * @example
 * await db.query("INSERT INTO t (content) VALUES (decode($1::text, 'base64'))", [byteaParam(bytes)]);
 */
export function byteaParam(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

/**
 * The bytes of a column read as `encode(content, 'base64')`.
 *
 * @example
 * const { rows } = await db.query("SELECT encode(content, 'base64') AS b FROM t");
 * const bytes = byteaResult(rows[0].b);
 */
export function byteaResult(base64: string): Uint8Array {
  const buffer = Buffer.from(base64, "base64");
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}
