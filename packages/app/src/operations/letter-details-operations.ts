import type { LetterDetails, LetterDetailsUpdate } from "@incasso/case-system";
import { flag, ORGANISATION_FLAG } from "../cli/common-flags.js";
import { required, text } from "../cli/flag-values.js";
import { UsageError } from "../cli/usage-error.js";
import { defineOperation } from "./operator-operation.js";

// Letter details per organisation (`incasso letter-details …` and the console): what the 14-day
// letter prints of its sender (decision case-system-letter-details). The case system is imported
// when an operation runs, so the CLI's start loads none of it (issue 17, start time).

/**
 * The letter details of an organisation as the operator sees them: its name and what the 14-day
 * letter prints of its sender (decision case-system-letter-details).
 *
 * @example
 * const view: LetterDetailsView = { organisation: "Acme BV", ...details };
 */
export type LetterDetailsView = LetterDetails & { organisation: string };

/** Each flag of `letter-details set` and the field it sets. */
const FIELD_FLAGS: ReadonlyArray<
  [flag: string, field: keyof LetterDetailsUpdate, placeholder: string, description: string]
> = [
  ["sender-name", "sender_name", "NAME", "who the letter is from; default the creditor"],
  ["street", "street", "TEXT", "street and house number"],
  ["postal-code", "postal_code", "CODE", "Dutch postal code, 1234 AB"],
  ["city", "city", "CITY", "city"],
  ["iban", "iban", "IBAN", "account to pay to; checked (ISO 13616 mod-97), spaces allowed"],
  ["bic", "bic", "BIC", "the bank's BIC (optional)"],
  ["kvk-number", "kvk_number", "N", "Chamber of Commerce number, 8 digits"],
  ["phone", "phone", "PHONE", "contact telephone number"],
  ["email", "email", "ADDRESS", "contact e-mail address"],
];

function detailsText(d: LetterDetailsView): string {
  const place = [d.postal_code, d.city].filter(Boolean).join(" ");
  const rows: Array<[string, string | null]> = [
    ["Organisation", d.organisation],
    ["Sender", d.sender_name ?? "(the creditor's name)"],
    ["Address", [d.street, place].filter(Boolean).join(", ") || null],
    ["IBAN", d.iban === null ? null : d.iban.replace(/(.{4})(?=.)/g, "$1 ")],
    ["BIC", d.bic],
    ["KvK number", d.kvk_number],
    ["Phone", d.phone],
    ["E-mail", d.email],
  ];
  const lines = rows.map(([label, value]) => `${`${label}:`.padEnd(14)}${value ?? "-"}`);
  if (d.iban === null) {
    lines.push("No IBAN: 14-day letters of this organisation are not made until one is set (--iban).");
  }
  return lines.join("\n");
}

/**
 * `set-letter-details`: sets the given fields (null clears one); the others keep their values.
 * Refused with `invalid_letter_details` (an IBAN that fails ISO 13616 mod-97, for one) and
 * `organisation_not_found`.
 *
 * @example
 * await operations.setLetterDetails({ organisation: "Acme BV", details: { iban: "NL91ABNA0417164300" } });
 */
export const setLetterDetails = defineOperation({
  name: "set-letter-details",
  fields: { organisation: "string", details: "object" },
  async run(
    { store },
    input: { organisation: string; details: LetterDetailsUpdate },
  ): Promise<LetterDetailsView> {
    const [{ saveLetterDetails }, { requireOrganisation }] = await Promise.all([
      import("@incasso/case-system"),
      import("@incasso/core"),
    ]);
    const organisation = await requireOrganisation(store, String(input.organisation));
    const details = await saveLetterDetails(store.database, organisation.id, input.details, new Date());
    return { organisation: organisation.name, ...details };
  },
  cli: {
    group: "letter-details",
    command: "set",
    summary: "set what the 14-day letter prints of its sender; an empty value clears one",
    flags: [
      ORGANISATION_FLAG,
      ...FIELD_FLAGS.map(([name, , value, description]) => flag(name, description, value)),
    ],
    // Flags left out keep their values, an empty value clears one. Values are checked before the
    // store is opened: an IBAN that fails its check is a usage error naming the flag (exit 2).
    async input(values) {
      const organisation = required(values, "organisation");
      const details: LetterDetailsUpdate = {};
      for (const [name, field] of FIELD_FLAGS) {
        const value = text(values, name);
        if (value !== undefined) details[field] = value.trim() === "" ? null : value;
      }
      if (Object.keys(details).length === 0) {
        throw new UsageError(
          `give at least one of ${FIELD_FLAGS.map(([f]) => `--${f}`).join(", ")}`,
          "usage_error",
        );
      }
      const { checkLetterDetailsUpdate, isCaseSystemError } = await import("@incasso/case-system");
      try {
        checkLetterDetailsUpdate(details);
      } catch (error) {
        // The field's message, with the flag the operator typed instead of the field's name.
        if (!isCaseSystemError(error)) throw error;
        const named = FIELD_FLAGS.find(([, field]) => error.message.startsWith(`${field}:`));
        throw new UsageError(named ? `--${named[0]}${error.message.slice(named[1].length)}` : error.message);
      }
      return { organisation, details };
    },
    text: detailsText,
  },
});

/**
 * `show-letter-details`: the letter details of an organisation; refused with
 * `organisation_not_found`.
 *
 * @example
 * const shown = await operations.showLetterDetails({ organisation: "Acme BV" });
 */
export const showLetterDetails = defineOperation({
  name: "show-letter-details",
  fields: { organisation: "string" },
  async run({ store }, input: { organisation: string }): Promise<LetterDetailsView> {
    const [{ readLetterDetails }, { requireOrganisation }] = await Promise.all([
      import("@incasso/case-system"),
      import("@incasso/core"),
    ]);
    const organisation = await requireOrganisation(store, String(input.organisation));
    return { organisation: organisation.name, ...(await readLetterDetails(store.database, organisation.id)) };
  },
  cli: {
    group: "letter-details",
    command: "show",
    summary: "the letter details of an organisation",
    flags: [ORGANISATION_FLAG],
    input: (values) => ({ organisation: required(values, "organisation") }),
    text: detailsText,
  },
});
