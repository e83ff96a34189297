import type { Executor } from "@incasso/store-sql";
import { CaseSystemError } from "./errors.js";
import { ibanProblem, normaliseIban } from "./iban.js";

/**
 * What the 14-day letter of an organisation's cases says of its sender (issue 19): the name and
 * address the letter comes from, the account to pay to, the Chamber of Commerce number and how to
 * reach the sender. Stored per organisation in the built-in case system's own table (migration
 * 32; decision case-system-letter-details). A field not set is null.
 *
 * @example
 * const details: LetterDetails = { sender_name: "Incassobureau Voorbeeld B.V.", street: "Keizersgracht 100",
 *   postal_code: "1015 AA", city: "Amsterdam", iban: "NL91ABNA0417164300", bic: "ABNANL2A",
 *   kvk_number: "12345678", phone: "020 123 4567", email: "info@voorbeeld.nl", updated_at: "2026-11-25T10:00:00.000Z" };
 */
export interface LetterDetails {
  /** The name the letter is sent and signed in; the creditor's name when null. */
  sender_name: string | null;
  /** Street and house number. */
  street: string | null;
  /** A Dutch postal code, `1234 AB`. */
  postal_code: string | null;
  city: string | null;
  /** Electronic form (no spaces, capitals), passed the ISO 13616 mod-97 check. */
  iban: string | null;
  /** ISO 9362, 8 or 11 characters. */
  bic: string | null;
  /** Kamer van Koophandel number: 8 digits. */
  kvk_number: string | null;
  phone: string | null;
  email: string | null;
  /** When they were last set; null when never. */
  updated_at: string | null;
}

/**
 * The fields a change sets: a string sets it (checked and normalised), null clears it, a field
 * left out keeps its value.
 *
 * @example
 * const change: LetterDetailsUpdate = { iban: "nl91 abna 0417 1643 00", bic: null };
 */
export type LetterDetailsUpdate = Partial<Record<Exclude<keyof LetterDetails, "updated_at">, string | null>>;

const FIELDS = [
  "sender_name",
  "street",
  "postal_code",
  "city",
  "iban",
  "bic",
  "kvk_number",
  "phone",
  "email",
] as const;

type Field = (typeof FIELDS)[number];

const EMPTY: LetterDetails = {
  sender_name: null,
  street: null,
  postal_code: null,
  city: null,
  iban: null,
  bic: null,
  kvk_number: null,
  phone: null,
  email: null,
  updated_at: null,
};

function refuse(field: Field, reason: string): CaseSystemError {
  return new CaseSystemError("invalid_letter_details", `${field}: ${reason}.`);
}

function plain(field: Field, value: string, max: number): string {
  const trimmed = value.trim().replace(/\s+/g, " ");
  if (trimmed === "") throw refuse(field, "must not be empty (null clears it)");
  if (trimmed.length > max) throw refuse(field, `has at most ${max} characters`);
  return trimmed;
}

/** One field checked and in its stored form. */
function normaliseField(field: Field, value: string): string {
  switch (field) {
    case "iban": {
      const iban = normaliseIban(value);
      const problem = ibanProblem(iban);
      if (problem !== undefined) throw refuse(field, `${value.trim()} is not a valid IBAN: ${problem}`);
      return iban;
    }
    case "bic": {
      const bic = value.replace(/\s+/g, "").toUpperCase();
      // ISO 9362: bank (4 letters), country (2 letters), location (2), optional branch (3).
      if (!/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic)) {
        throw refuse(field, `${value.trim()} is not a BIC (8 or 11 letters and digits, ISO 9362)`);
      }
      return bic;
    }
    case "kvk_number": {
      const kvk = value.replace(/\s+/g, "");
      // The Handelsregister numbers every registration with 8 digits (Handelsregisterbesluit 2008).
      if (!/^[0-9]{8}$/.test(kvk)) throw refuse(field, `${value.trim()} is not a KvK number of 8 digits`);
      return kvk;
    }
    case "postal_code": {
      const match = /^([1-9][0-9]{3}) ?([A-Za-z]{2})$/.exec(value.trim());
      if (match === null) throw refuse(field, `${value.trim()} is not a Dutch postal code like 1234 AB`);
      return `${match[1]} ${match[2]?.toUpperCase()}`;
    }
    case "phone": {
      const phone = plain(field, value, 30);
      if (!/^\+?[0-9][0-9 ()-]{5,}$/.test(phone)) {
        throw refuse(field, `${phone} is not a telephone number (digits, spaces, -, ( ) and a leading +)`);
      }
      return phone;
    }
    case "email": {
      const email = value.trim();
      if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
        throw refuse(field, `${email} is not an e-mail address`);
      }
      return email;
    }
    case "sender_name":
      return plain(field, value, 200);
    case "street":
    case "city":
      return plain(field, value, 100);
  }
}

/**
 * Checks and normalises a change of letter details: the IBAN in electronic form after the
 * ISO 13616 mod-97 check, the BIC and postal code in capitals, the KvK number as 8 digits.
 *
 * @throws {CaseSystemError} `invalid_letter_details`, naming the field and why.
 * @example
 * checkLetterDetailsUpdate({ iban: "nl91 abna 0417 1643 00" }); // { iban: "NL91ABNA0417164300" }
 */
export function checkLetterDetailsUpdate(update: LetterDetailsUpdate): LetterDetailsUpdate {
  if (typeof update !== "object" || update === null) {
    throw new CaseSystemError("invalid_letter_details", "Letter details must be an object.");
  }
  const unknown = Object.keys(update).filter((k) => !(FIELDS as readonly string[]).includes(k));
  if (unknown.length > 0) {
    throw new CaseSystemError("invalid_letter_details", `Unknown letter detail: ${unknown.join(", ")}.`);
  }
  const out: LetterDetailsUpdate = {};
  for (const field of FIELDS) {
    const value = update[field];
    if (value === undefined) continue;
    if (value !== null && typeof value !== "string") throw refuse(field, "must be text or null");
    out[field] = value === null ? null : normaliseField(field, value);
  }
  return out;
}

type Row = Omit<LetterDetails, "updated_at"> & { updated_at: Date | string | null };

const iso = (value: Date | string | null) =>
  value === null ? null : (value instanceof Date ? value : new Date(value)).toISOString();

/**
 * The letter details of an organisation; every field null when none were set.
 *
 * @example
 * const details = await readLetterDetails(store.database, organisation.id);
 */
export async function readLetterDetails(db: Executor, organisationId: string): Promise<LetterDetails> {
  const { rows } = await db.query<Row>(
    `SELECT ${FIELDS.join(", ")}, updated_at FROM case_letter_details WHERE organisation_id = $1`,
    [organisationId],
  );
  const row = rows[0];
  return row === undefined ? { ...EMPTY } : { ...row, updated_at: iso(row.updated_at) };
}

/**
 * Sets letter details of an organisation (checked by {@link checkLetterDetailsUpdate}); the fields
 * left out keep their values. Returns the details as stored.
 *
 * @throws {CaseSystemError} `invalid_letter_details`.
 * @example
 * await saveLetterDetails(store.database, organisation.id, { iban: "NL91ABNA0417164300" }, new Date());
 */
export async function saveLetterDetails(
  db: Executor,
  organisationId: string,
  update: LetterDetailsUpdate,
  now: Date,
): Promise<LetterDetails> {
  const checked = checkLetterDetailsUpdate(update);
  const given = FIELDS.filter((f) => checked[f] !== undefined);
  const values = FIELDS.map((f) => checked[f] ?? null);
  // One statement: a field not given keeps the stored value (or stays null on a first insert).
  const keep = FIELDS.map((f) => `${f} = ${given.includes(f) ? `EXCLUDED.${f}` : `d.${f}`}`).join(", ");
  await db.query(
    `INSERT INTO case_letter_details AS d (organisation_id, ${FIELDS.join(", ")}, updated_at)
     VALUES ($1, ${FIELDS.map((_, i) => `$${i + 2}`).join(", ")}, $${FIELDS.length + 2})
     ON CONFLICT (organisation_id) DO UPDATE SET ${keep}, updated_at = EXCLUDED.updated_at`,
    [organisationId, ...values, now.toISOString()],
  );
  const saved = await readLetterDetails(db, organisationId);
  if (saved.iban !== null) await requeueJobsWaitingForDetails(db, organisationId, now);
  return saved;
}

/**
 * Makes the organisation's letter jobs that failed for want of letter details due now, with a
 * fresh count of attempts: the letter the order promised is made once the details are there,
 * without a retry by hand (issue 31; decision case-system-wik-letter-jobs). The runner wrote the
 * refusal's code at the start of `last_error`.
 */
async function requeueJobsWaitingForDetails(db: Executor, organisationId: string, now: Date): Promise<void> {
  await db.query(
    `UPDATE case_letter_jobs j SET state = 'pending', attempts = 0, due_at = $2, lease_owner = NULL, updated_at = $2
     FROM cases c
     WHERE c.case_number = j.case_number AND c.organisation_id = $1
       AND j.state = 'failed' AND starts_with(j.last_error, 'letter_details_missing:')`,
    [organisationId, now.toISOString()],
  );
}
