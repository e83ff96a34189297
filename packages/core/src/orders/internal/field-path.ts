const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Writes a path in the spec's notation (section Errors: `invoices[0].amount_cents`). Map keys
 * that are not plain identifiers (metadata and udf_fields keys may hold anything) are written
 * as a quoted index, `metadata["order id"]`, so the path stays unambiguous.
 */
export function formatFieldPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else {
      const key = String(part);
      if (!IDENTIFIER.test(key)) out += `[${JSON.stringify(key)}]`;
      else out += out === "" ? key : `.${key}`;
    }
  }
  return out === "" ? "body" : out;
}
