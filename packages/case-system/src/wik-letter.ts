import { formatDutchEuro, formatDutchLongDate } from "@incasso/core";
import { costsAtLetter } from "./case-collection-costs.js";
import { CaseSystemError } from "./errors.js";
import { formatIban } from "./iban.js";

/**
 * Who the letter comes from and where to pay: the organisation's letter details (decision
 * case-system-letter-details). The IBAN is what a debtor needs to act on the letter; the other
 * fields are printed when set.
 *
 * @example
 * const sender: WikLetterSender = { name: "Incassobureau Voorbeeld B.V.", street: "Keizersgracht 100",
 *   postalCode: "1015 AA", city: "Amsterdam", iban: "NL91ABNA0417164300", bic: null, kvkNumber: "12345678",
 *   phone: "020 123 4567", email: "info@voorbeeld.nl" };
 */
export interface WikLetterSender {
  name: string;
  street: string | null;
  postalCode: string | null;
  city: string | null;
  /** Electronic form; printed in groups of four. */
  iban: string;
  bic: string | null;
  kvkNumber: string | null;
  phone: string | null;
  email: string | null;
}

/**
 * What the statutory 14-day letter is written from: the case, its creditor, its debtors with their
 * addresses, its invoices and what was paid already.
 *
 * @example
 * const input: WikLetterInput = { letterDate: "2026-11-21", caseNumber: "2026-000001", reference: "R-1",
 *   creditorName: "Acme BV", debtors: [{ name: "J. Jansen", address: { street: "Teststraat", house_number: "1",
 *   house_number_suffix: null, postal_code: "9999 ZZ", city: "Testdorp", country: "NL" } }],
 *   invoices: [{ invoiceNumber: "F-1", invoiceDate: "2026-10-01", dueDate: "2026-10-15", amountCents: 100000 }], paidCents: 0,
 *   sender: { name: "Acme BV", street: "Kade 1", postalCode: "1000 AA", city: "Amsterdam", iban: "NL91ABNA0417164300",
 *   bic: null, kvkNumber: "12345678", phone: null, email: null } };
 */
export interface WikLetterInput {
  /** `YYYY-MM-DD`: the day the letter is dated and sent. */
  letterDate: string;
  caseNumber: string;
  /** The client's reference of the order, or null. */
  reference: string | null;
  creditorName: string;
  debtors: ReadonlyArray<{
    name: string;
    address: {
      street: string;
      house_number: string;
      house_number_suffix: string | null;
      postal_code: string;
      city: string;
      country: string;
    } | null;
  }>;
  invoices: ReadonlyArray<{
    invoiceNumber: string;
    invoiceDate: string;
    dueDate: string;
    amountCents: number;
  }>;
  /**
   * Payments received before the letter (made on or before its date; `paidBefore`): they lower the
   * principal the costs are taken over.
   */
  paidCents: number;
  /** The sender and the account to pay to; null when the organisation has no IBAN set. */
  sender: WikLetterSender | null;
}

/**
 * One block of the letter, top to bottom: a line of its own (bold for headings), a paragraph
 * that is wrapped to the page width, the invoice table, or white space.
 *
 * @example
 * const block: WikLetterBlock = { kind: "paragraph", text: "Geachte heer, mevrouw," };
 */
export type WikLetterBlock =
  | { kind: "line"; text: string; bold?: boolean }
  | { kind: "paragraph"; text: string }
  | { kind: "table"; header: string[]; rows: string[][]; totals: Array<[string, string]> }
  | { kind: "gap" };

/**
 * The letter as text blocks with the amounts it states.
 *
 * @example
 * const letter: WikLetter = composeWikLetter(input);
 * letter.collectionCostsCents; // 15000 on a principal of € 1.000,00
 */
export interface WikLetter {
  /** Sum of the invoices on the case. */
  principalCents: number;
  paidCents: number;
  /** Principal still unpaid: the base of the collection costs. */
  outstandingCents: number;
  /** BIK scale on the outstanding principal of all invoices together (art. 6:96 lid 7 BW). */
  collectionCostsCents: number;
  title: string;
  blocks: WikLetterBlock[];
}

function addressLines(address: NonNullable<WikLetterInput["debtors"][number]["address"]>): string[] {
  const house = [address.house_number, address.house_number_suffix].filter(Boolean).join(" ");
  const lines = [`${address.street} ${house}`, `${address.postal_code} ${address.city}`];
  // A Dutch letter leaves out the country at home; abroad the ISO code is what we have.
  if (address.country !== "NL") lines.push(address.country);
  return lines;
}

/** The letterhead: name, address, KvK number and contact, each line when set. */
function senderLines(sender: WikLetterSender): string[] {
  const place = [sender.postalCode, sender.city].filter((p) => p !== null).join(" ");
  return [
    sender.name,
    ...(sender.street === null ? [] : [sender.street]),
    ...(place === "" ? [] : [place]),
    ...(sender.phone === null ? [] : [`Telefoon: ${sender.phone}`]),
    ...(sender.email === null ? [] : [`E-mail: ${sender.email}`]),
    ...(sender.kvkNumber === null ? [] : [`KvK-nummer: ${sender.kvkNumber}`]),
  ];
}

function contactParagraph(sender: WikLetterSender): WikLetterBlock[] {
  const ways = [
    ...(sender.phone === null ? [] : [`telefonisch via ${sender.phone}`]),
    ...(sender.email === null ? [] : [`per e-mail via ${sender.email}`]),
  ];
  if (ways.length === 0) return [];
  return [
    {
      kind: "paragraph",
      text: `Heeft u vragen over deze brief, neem dan contact met ons op ${ways.join(" of ")}, onder vermelding van het dossiernummer.`,
    },
  ];
}

/**
 * Writes the statutory 14-day letter (veertiendagenbrief) of a pre-incasso case in Dutch, with
 * what art. 6:96 lid 6 BW requires of it (shared data wik/RULES.md §1.3):
 *
 * - a term of 14 days to pay, counted from the day after the debtor receives the letter (the
 *   reminder takes effect when it reaches the debtor, art. 3:37 lid 3 BW; decision
 *   pdf-guard-wik-term-start), so no end date is printed: the day of receipt is not known;
 * - the consequence of not paying within it: further collection and the collection costs;
 * - the amount of those costs, on the BIK scale (art. 2 BIK) over the principal still unpaid of
 *   all invoices on the case added together (art. 6:96 lid 7 BW), lowered by the payments received
 *   before the letter, without VAT (art. 2 lid 3 BIK needs a statement of the creditor we do not
 *   have): `costsAtLetter`, the computation the case balance uses too;
 * - the creditor, the debtors with their addresses and every invoice with its amount;
 * - the sender with its address, KvK number and contact details, and the IBAN to pay to with the
 *   case number as payment reference (issue 19): a debtor cannot act on a letter without them.
 *
 * @throws {CaseSystemError} `no_invoices` without invoices; `nothing_outstanding` when the payments
 * cover the principal; `letter_details_missing` without a sender (no IBAN in the letter details).
 * @example
 * const letter = composeWikLetter(input);
 * const pdf = await renderWikLetterPdf(letter);
 */
export function composeWikLetter(input: WikLetterInput): WikLetter {
  if (input.invoices.length === 0) {
    throw new CaseSystemError("no_invoices", `Case ${input.caseNumber} has no invoices to remind of.`);
  }
  // The one computation of the costs, shared with the case balance (decision case-system-collection-costs).
  const { principalCents, outstandingCents, collectionCostsCents } = costsAtLetter({
    principalCents: input.invoices.reduce((sum, i) => sum + i.amountCents, 0),
    paidBeforeCents: input.paidCents,
  });
  if (outstandingCents <= 0) {
    throw new CaseSystemError(
      "nothing_outstanding",
      `The payments on case ${input.caseNumber} cover its principal; there is nothing to remind of.`,
    );
  }
  const sender = input.sender;
  if (sender === null) {
    throw new CaseSystemError(
      "letter_details_missing",
      `The letter details of the organisation of case ${input.caseNumber} have no IBAN, so the letter would not say where to pay; set them with: incasso letter-details set --organisation NAME --iban IBAN.`,
    );
  }
  const creditor = input.creditorName;
  const blocks: WikLetterBlock[] = [
    ...senderLines(sender).map((text, i) => ({ kind: "line" as const, text, bold: i === 0 })),
    { kind: "gap" },
  ];

  // Several debtors of one claim are addressed jointly (spec: "addressed jointly for the same
  // claim"); the same debtor brought by several orders on the case is named once.
  const seen = new Set<string>();
  for (const debtor of input.debtors) {
    const lines = [debtor.name, ...(debtor.address ? addressLines(debtor.address) : [])];
    const key = lines.join("\n");
    if (seen.has(key)) continue;
    seen.add(key);
    for (const text of lines) blocks.push({ kind: "line", text });
    blocks.push({ kind: "gap" });
  }

  blocks.push(
    { kind: "line", text: `Datum: ${formatDutchLongDate(input.letterDate)}` },
    { kind: "line", text: `Dossiernummer: ${input.caseNumber}` },
    ...(input.reference === null
      ? []
      : [{ kind: "line" as const, text: `Referentie ${creditor}: ${input.reference}` }]),
    { kind: "line", text: "Betreft: aanmaning (veertiendagenbrief)" },
    { kind: "gap" },
    { kind: "paragraph", text: "Geachte heer, mevrouw," },
    {
      kind: "paragraph",
      text: `Volgens de administratie van ${creditor} zijn de onderstaande facturen nog niet betaald.`,
    },
    {
      kind: "table",
      header: ["Factuur", "Factuurdatum", "Vervaldatum", "Bedrag"],
      rows: input.invoices.map((i) => [
        i.invoiceNumber,
        formatDutchLongDate(i.invoiceDate),
        formatDutchLongDate(i.dueDate),
        formatDutchEuro(i.amountCents),
      ]),
      totals: [
        ["Totaal hoofdsom", formatDutchEuro(principalCents)],
        ...(input.paidCents > 0
          ? ([
              ["Reeds betaald", formatDutchEuro(input.paidCents)],
              ["Nog te betalen", formatDutchEuro(outstandingCents)],
            ] as Array<[string, string]>)
          : []),
      ],
    },
    {
      kind: "paragraph",
      text: `Wij verzoeken u het openstaande bedrag van ${formatDutchEuro(outstandingCents)} binnen 14 dagen, te rekenen vanaf de dag na ontvangst van deze brief, over te maken op rekening ${formatIban(sender.iban)}${sender.bic === null ? "" : ` (BIC ${sender.bic})`} ten name van ${sender.name}, onder vermelding van betalingskenmerk ${input.caseNumber}.`,
    },
    {
      kind: "paragraph",
      text: `Betaalt u niet binnen deze termijn, dan wordt de vordering verder geïncasseerd en bent u naast het openstaande bedrag buitengerechtelijke incassokosten verschuldigd van ${formatDutchEuro(collectionCostsCents)}.`,
    },
    {
      kind: "paragraph",
      text: `Dit bedrag volgt uit de staffel van het Besluit vergoeding voor buitengerechtelijke incassokosten, berekend over de openstaande hoofdsommen samen (${formatDutchEuro(outstandingCents)}, artikel 6:96 lid 7 BW).`,
    },
    {
      kind: "paragraph",
      text: "Deze brief is de aanmaning bedoeld in artikel 6:96 lid 6 van het Burgerlijk Wetboek. Heeft u inmiddels betaald, dan kunt u deze brief als niet verzonden beschouwen.",
    },
    ...contactParagraph(sender),
    { kind: "gap" },
    { kind: "paragraph", text: "Met vriendelijke groet," },
    { kind: "line", text: sender.name },
    ...(sender.name === creditor ? [] : [{ kind: "line" as const, text: `namens ${creditor}` }]),
  );
  return {
    principalCents,
    paidCents: input.paidCents,
    outstandingCents,
    collectionCostsCents,
    title: `Aanmaning dossier ${input.caseNumber}`,
    blocks,
  };
}
