import type { LetterDetailsUpdate } from "@incasso/case-system";
import type { LetterDetailsView } from "../operator/letter-details-operations.js";
import type { OperatorOperations } from "../operator/operations.js";
import { JSON_FLAG, STORAGE_FLAGS } from "./common-flags.js";
import type { FlagSpec, FlagValues } from "./flag-spec.js";
import { required, text } from "./flag-values.js";
import { printJson } from "./print.js";
import type { Leaf } from "./program.js";
import { UsageError } from "./usage-error.js";

const data = (...specs: FlagSpec[]): readonly FlagSpec[] => [...specs, JSON_FLAG, ...STORAGE_FLAGS];

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

const ORGANISATION: FlagSpec = {
  name: "organisation",
  value: "NAME",
  description: "the organisation, as its keys name it",
};

async function withOperations<T>(
  values: FlagValues,
  fn: (ops: OperatorOperations) => Promise<T>,
): Promise<T> {
  const { withOperations: run } = await import("../internal/cli-store.js");
  return run(values, "letter-details", fn);
}

function printDetails(d: LetterDetailsView): void {
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
  for (const [label, value] of rows) console.log(`${`${label}:`.padEnd(14)}${value ?? "-"}`);
  if (d.iban === null) {
    console.log("No IBAN: 14-day letters of this organisation are not made until one is set (--iban).");
  }
}

/**
 * `incasso letter-details set --organisation ORG [--iban IBAN] …`: sets what the 14-day letter
 * prints of its sender; flags left out keep their values, an empty value clears one. Values are
 * checked before the store is opened: an IBAN that fails its check is a usage error (exit 2).
 *
 * @example
 * await letterDetailsSet({ organisation: "Acme BV", iban: "NL91 ABNA 0417 1643 00" });
 */
export async function letterDetailsSet(values: FlagValues): Promise<void> {
  const organisation = required(values, "organisation");
  const details: LetterDetailsUpdate = {};
  for (const [flag, field] of FIELD_FLAGS) {
    const value = text(values, flag);
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
    const flag = FIELD_FLAGS.find(([, field]) => error.message.startsWith(`${field}:`));
    throw new UsageError(flag ? `--${flag[0]}${error.message.slice(flag[1].length)}` : error.message);
  }
  const saved = await withOperations(values, (ops) => ops.setLetterDetails({ organisation, details }));
  if (values.json) return printJson(saved);
  printDetails(saved);
}

/**
 * `incasso letter-details show --organisation ORG`.
 *
 * @example
 * await letterDetailsShow({ organisation: "Acme BV", json: true });
 */
export async function letterDetailsShow(values: FlagValues): Promise<void> {
  const organisation = required(values, "organisation");
  const shown = await withOperations(values, (ops) => ops.showLetterDetails({ organisation }));
  if (values.json) return printJson(shown);
  printDetails(shown);
}

/**
 * The `incasso letter-details` commands, for the command tree.
 *
 * @example
 * addGroup(root, "letter-details", "sender, IBAN and contact printed on the 14-day letter", LETTER_DETAILS);
 */
export const LETTER_DETAILS: Leaf[] = [
  {
    name: "set",
    summary: "set what the 14-day letter prints of its sender; an empty value clears one",
    flags: data(
      ORGANISATION,
      ...FIELD_FLAGS.map(([name, , value, description]) => ({ name, value, description })),
    ),
    run: (v) => letterDetailsSet(v),
  },
  {
    name: "show",
    summary: "the letter details of an organisation",
    flags: data(ORGANISATION),
    run: (v) => letterDetailsShow(v),
  },
];
