import { DEFAULT_COUNTRY, normaliseCountryCode } from "../country-code.js";
import { ORDER_LIMITS } from "../limits.js";
import { normaliseDutchPostalCode } from "../postal-code.js";
import { hasText, isRecord } from "./schema-parts.js";

/** A finding of a rule that ties fields together, with its path below the judged object. */
export interface RuleIssue {
  path: PropertyKey[];
  code: string;
  message: string;
}

// These rules read raw input and are refinements of the schemas, run whenever the judged value is
// an object (`whenObject`): zod would otherwise skip an object's refinements once a field was cut
// short (a non-integer for z.int, a string or array over its maximum), and the spec wants every
// violation back at once. The order body is parsed once, so each rule runs once (issue 21, item 2).

const present = (v: unknown) => v !== undefined && v !== null;
const missingText = (v: unknown) => v === undefined || (typeof v === "string" && v.trim() === "");

/**
 * Address: for country NL (also when country is absent, its default) the postal code must have the
 * format "four digits, space, two letters" (spec Address.postal_code). An invalid country has its
 * own error; the postal code is then not judged.
 */
export function addressRules(address: unknown): RuleIssue[] {
  if (!isRecord(address)) return [];
  const c = address.country;
  const country = c === undefined ? DEFAULT_COUNTRY : typeof c === "string" ? normaliseCountryCode(c) : null;
  const postal = address.postal_code;
  if (country !== DEFAULT_COUNTRY || typeof postal !== "string") return [];
  if (postal.trim() === "" || postal.length > ORDER_LIMITS.length.postal_code) return [];
  if (normaliseDutchPostalCode(postal) !== null) return [];
  return [
    {
      path: ["postal_code"],
      code: "invalid_format",
      message: "must be four digits, a space and two letters (1234 AB)",
    },
  ];
}

/**
 * Debtor: company_name "required when type is business", last_name "required when type is
 * individual", first_name and middle_name "only for individual" (spec Debtor). A null or a
 * non-string already has its own type error; only absence and blanks are reported here.
 */
export function debtorRules(debtor: unknown): RuleIssue[] {
  if (!isRecord(debtor)) return [];
  const out: RuleIssue[] = [];
  if (debtor.type === "business" && missingText(debtor.company_name)) {
    out.push({ path: ["company_name"], code: "required", message: "is required when type is business" });
  }
  if (debtor.type === "individual" && missingText(debtor.last_name)) {
    out.push({ path: ["last_name"], code: "required", message: "is required when type is individual" });
  }
  if (debtor.type === "business") {
    for (const field of ["first_name", "middle_name"]) {
      if (hasText(debtor[field])) {
        out.push({ path: [field], code: "not_allowed", message: "is only allowed when type is individual" });
      }
    }
  }
  return out;
}

/** Invoice: exactly one of due_date and payment_term_days (spec Invoice). */
export function invoiceRules(invoice: unknown): RuleIssue[] {
  if (!isRecord(invoice)) return [];
  const given = Number(present(invoice.due_date)) + Number(present(invoice.payment_term_days));
  if (given === 0) {
    return [
      { path: ["due_date"], code: "one_of_required", message: "give either due_date or payment_term_days" },
    ];
  }
  if (given === 2) {
    return [
      {
        path: ["payment_term_days"],
        code: "mutually_exclusive",
        message: "give either due_date or payment_term_days, not both",
      },
    ];
  }
  return [];
}

/** Creditor: "Exactly one of `id` ... or `reference`" (spec CreateOrder.creditor), not blank. */
export function creditorRules(creditor: unknown): RuleIssue[] {
  if (!isRecord(creditor)) return [];
  const out: RuleIssue[] = [];
  const hasId = creditor.id !== undefined;
  const hasReference = creditor.reference !== undefined;
  if (!hasId && !hasReference) {
    out.push({ path: ["id"], code: "one_of_required", message: "give either id or reference" });
  } else if (hasId && hasReference) {
    out.push({
      path: ["reference"],
      code: "mutually_exclusive",
      message: "give either id or reference, not both",
    });
  }
  for (const field of ["id", "reference"]) {
    const v = creditor[field];
    if (typeof v === "string" && v.trim() === "")
      out.push({ path: [field], code: "required", message: "must not be blank" });
  }
  return out;
}

/** Adds rule findings to a zod refinement context. */
export function reportTo(
  ctx: {
    addIssue: (issue: {
      code: "custom";
      message: string;
      path: PropertyKey[];
      params: { code: string };
    }) => void;
  },
  issues: ReadonlyArray<RuleIssue>,
): void {
  for (const i of issues)
    ctx.addIssue({ code: "custom", message: i.message, path: i.path, params: { code: i.code } });
}
