/**
 * The debtor fields that make up a display name.
 *
 * @example
 * const d: DisplayNameFields = { type: "individual", first_name: "Jan", middle_name: "de", last_name: "Vries" };
 */
export interface DisplayNameFields {
  type: "business" | "individual";
  company_name?: string | null;
  first_name?: string | null;
  middle_name?: string | null;
  last_name?: string | null;
}

function join(parts: ReadonlyArray<string | null | undefined>): string {
  return parts
    .map((p) => (p ?? "").trim().replace(/\s+/g, " "))
    .filter((p) => p !== "")
    .join(" ");
}

/**
 * The name of a debtor as the API shows it (spec Order.debtors[].name and OrderList
 * debtors_summary): for an individual "first middle last" (the Dutch order, infix before the
 * last name: "Jan de Vries"), for a business the company name. Missing parts are left out and
 * whitespace is collapsed. For a validated debtor the result is never empty; for anything else
 * the other name fields are the fallback, and the empty string the last resort.
 *
 * @example
 * debtorDisplayName({ type: "individual", first_name: "Jan", middle_name: "de", last_name: "Vries" }); // "Jan de Vries"
 * debtorDisplayName({ type: "business", company_name: "Test B.V." }); // "Test B.V."
 */
export function debtorDisplayName(debtor: DisplayNameFields): string {
  const person = join([debtor.first_name, debtor.middle_name, debtor.last_name]);
  const company = join([debtor.company_name]);
  if (debtor.type === "business") return company !== "" ? company : person;
  return person !== "" ? person : company;
}

/**
 * The `debtors_summary` of an OrderList item: the debtors' display names, comma-separated
 * (spec OrderList: "comma-separated debtor names"), in the order of the request.
 *
 * @example
 * debtorsSummary([
 *   { type: "individual", first_name: "Jan", last_name: "Vries", middle_name: "de" },
 *   { type: "individual", first_name: "Els", last_name: "Vries", middle_name: "de" },
 * ]); // "Jan de Vries, Els de Vries"
 */
export function debtorsSummary(debtors: ReadonlyArray<DisplayNameFields>): string {
  return debtors.map(debtorDisplayName).join(", ");
}
