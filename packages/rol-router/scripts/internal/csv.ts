/**
 * Minimal RFC 4180 CSV reader: comma separator, double-quoted fields with `""` escapes, `\n` or
 * `\r\n` line ends. The reference files are written that way (SOURCES.md, WOONPLAATSEN-SOURCES.md).
 *
 * @example
 * parseCsv('a,b\n1,"x, y"\n'); // [{ a: "1", b: "x, y" }]
 */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (quoted) throw new Error("CSV: unterminated quoted field");
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  const [header, ...body] = rows;
  if (!header) return [];
  return body.map((cells, n) => {
    if (cells.length !== header.length) {
      throw new Error(`CSV: line ${n + 2} has ${cells.length} fields, header has ${header.length}`);
    }
    return Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ""]));
  });
}
