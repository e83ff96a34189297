/**
 * Escapes text for HTML element content and double-quoted attribute values.
 *
 * @example
 * escapeHtml('<a href="x">'); // "&lt;a href=&quot;x&quot;&gt;"
 */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/**
 * JSON for a `<script type="application/json">` block: `<` is written as `\u003c`, so no
 * `</script>` inside a value can end the block early (HTML Living Standard, script data state).
 *
 * @example
 * jsonForScript({ a: "</script>" }); // '{"a":"\\u003c/script>"}'
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}
