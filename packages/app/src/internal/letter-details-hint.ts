import type { SqlStore } from "@incasso/store-sql";

/**
 * The organisations whose 14-day letters cannot be made yet: their letter details have no IBAN
 * (decision case-system-letter-details). Empty when there are none, or when the store has no
 * built-in case system's tables (a host's own case system sends its own letters).
 *
 * @example
 * await organisationsWithoutLetterIban(store); // ["Demo"]
 */
export async function organisationsWithoutLetterIban(store: Pick<SqlStore, "database">): Promise<string[]> {
  try {
    const { rows } = await store.database.query<{ name: string }>(
      `SELECT o.name FROM organisations o
       LEFT JOIN case_letter_details d ON d.organisation_id = o.id
       WHERE d.iban IS NULL ORDER BY o.name`,
    );
    return rows.map((r) => r.name);
  } catch {
    return [];
  }
}

/**
 * The start line that says which letter details are still needed, and the command that sets them
 * (issue 31: a fresh server's first 14-day letter waited, unexplained, for an IBAN).
 *
 * @example
 * letterDetailsHint(["Demo"]);
 * // "letters: no IBAN for Demo, so its 14-day letters wait; set the sender's details with: incasso letter-details set --organisation Demo --iban IBAN --street TEXT --postal-code CODE --city CITY"
 */
export function letterDetailsHint(organisations: readonly string[]): string | undefined {
  if (organisations.length === 0) return undefined;
  const first = organisations[0] as string;
  const quoted = /^[\w.-]+$/.test(first) ? first : JSON.stringify(first);
  const names =
    organisations.length === 1
      ? first
      : `${organisations.length} organisations (${organisations.join(", ")})`;
  return `letters: no IBAN for ${names}, so ${organisations.length === 1 ? "its" : "their"} 14-day letters wait; set the sender's details with: incasso letter-details set --organisation ${quoted} --iban IBAN --street TEXT --postal-code CODE --city CITY`;
}
