/**
 * Writes a value as indented JSON on stdout, for `--json`.
 *
 * @example
 * printJson({ id: "key_0123456789abcdef" });
 */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
