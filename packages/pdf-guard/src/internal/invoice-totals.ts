import { classifyLabel, type InvoiceLabelKind } from "./invoice-labels.js";
import { type FindMoneyOptions, findMoney as findMoneyIn } from "./money.js";

/** The amounts an invoice's text names, by their labels; null when not found. */
export interface InvoiceTotals {
  /** The invoice total including VAT. Never a net total. */
  totalCents: number | null;
  /** The amount still to pay, when the invoice names one apart from the total. */
  dueCents: number | null;
  /** An amount already paid (a deposit, an earlier payment), as a positive number. */
  paidCents: number | null;
  /** The currency written with the total, or null when none is. */
  currency: string | null;
}

interface Candidate {
  kind: InvoiceLabelKind;
  cents: number;
  currency: string | null;
  line: number;
  /** Whether the label also names a total ("Totaal te betalen", "Total due"). */
  namesTotal: boolean;
}

// A total word in a label of another kind: "Totaal te betalen" is the amount due and the total.
const TOTAL_WORD =
  /(?<![\p{L}])(?:totaal\p{L}*|total\p{L}*|gesamt\p{L}*|\p{L}*summe|montant\s+total)(?![\p{L}])/iu;

/**
 * Reads the total, the amount due and any amount paid from an invoice's text, as the PDF parse
 * writes it: one line per baseline, read left to right, with a tab between items far apart
 * (columns). Each amount is paired with its label: the nearest text before it on its line (in the
 * same column or the one to its left), else, for an amount that opens its line, a label wrapped
 * over the line above ("Totaal te" / "betalen  € 100,00") or the text right after it
 * ("€ 100,00 Total"). The last amount of a row of bare amounts under a header row takes that
 * row's last caption, when it names the total or the amount due. Labels are Dutch, English,
 * German and French ({@link classifyLabel}).
 *
 * The total is the largest amount labelled as the invoice total including VAT ("Totaal incl.
 * btw", "Grand total", "Bruttosumme", "Total TTC"), else the largest plain "Totaal" / "Total", else
 * the amount due; a net total is never taken. The largest, because the partial totals an invoice
 * shows before its grand total (per VAT rate, per page) are smaller than it.
 *
 * @example
 * readInvoiceTotals("Subtotaal\t€ 100,00\nBTW 21%\t€ 21,00\nTotaal\t€ 121,00").totalCents; // 12100
 */
export function readInvoiceTotals(text: string, options: FindMoneyOptions = {}): InvoiceTotals {
  const findMoney = (line: string) => findMoneyIn(line, options);
  const lines = text.split("\n").map((l) => l.trim());
  const candidates: Candidate[] = [];
  // OCR text: a line that names the total but whose amount could not be read ("Total TTC 53075€",
  // its decimal comma lost).
  let unreadTotal = false;
  lines.forEach((line, i) => {
    const amounts = findMoney(line);
    if (options.strict && amounts.length === 0 && /\d/.test(line)) {
      const kinds = cells(line).map((cell) => classifyLabel(cell));
      if (kinds.includes("gross") || kinds.includes("total")) unreadTotal = true;
    }
    amounts.forEach((amount, k) => {
      const from = k === 0 ? 0 : (amounts[k - 1]?.end ?? 0);
      const before = lastCellWithLetters(line.slice(from, amount.index));
      let kind = before === null ? null : classifyLabel(before);
      let label = before ?? "";
      if (kind === null && k === 0) {
        // A label wrapped over two lines: the line above ends it, this line has the rest.
        // Only a caption's first half qualifies: a line of one or two cells, not a table's
        // header row, whose last cell names the column below it, not this row.
        const above = lines[i - 1] ?? "";
        const wrapped = before === null || !/\d/.test(before);
        if (wrapped && above.length > 0 && cells(above).length <= 2 && findMoney(above).length === 0) {
          label = `${lastCell(above)} ${before ?? ""}`;
          kind = classifyLabel(label);
        }
      }
      if (kind === null && before === null) {
        // The label after its amount: the next cell, up to the next amount.
        const next = amounts[k + 1];
        label = firstCell(line.slice(amount.end, next ? next.index : line.length));
        kind = classifyLabel(label);
      }
      if (
        kind === null &&
        before === null &&
        k === amounts.length - 1 &&
        line.slice(amount.end).trim() === ""
      ) {
        kind = columnHeaderKind(lines, i, findMoney);
      }
      if (kind !== null) {
        const namesTotal = TOTAL_WORD.test(label);
        candidates.push({ kind, cents: amount.cents, currency: amount.currency, line: i, namesTotal });
      }
    });
  });
  const of = (kind: InvoiceLabelKind) => candidates.filter((c) => c.kind === kind);
  const largest = (list: Candidate[]) =>
    list.reduce<Candidate | null>((best, c) => (best === null || c.cents > best.cents ? c : best), null);
  const due = of("due");
  const lastDue = due[due.length - 1] ?? null;
  const paid = largest(of("paid").map((c) => ({ ...c, cents: Math.abs(c.cents) })));
  let total = largest(of("gross")) ?? largest(of("total"));
  // From OCR text an amount due stands in for the total only when no total was seen unread, or
  // when its own label names a total ("Totaal te betalen"): a total whose amount OCR misread must
  // not leave a balance after a deposit ("Solde à payer") in its place.
  if (total === null && lastDue !== null && (!options.strict || lastDue.namesTotal || !unreadTotal)) {
    // Only an amount due: that is the total unless the invoice also names a payment.
    total = paid !== null && paid.cents > 0 ? { ...lastDue, cents: lastDue.cents + paid.cents } : lastDue;
  }
  return {
    totalCents: total?.cents ?? null,
    dueCents: lastDue?.cents ?? null,
    paidCents: paid !== null && paid.cents > 0 ? paid.cents : null,
    currency: total?.currency ?? null,
  };
}

// A summary table whose captions are a header row above rows of bare amounts ("Nettobetrag
// MwSt-Betrag Endbetrag" over "448,99 70,00 518,99"): the row's last amount sits under the header's
// last caption. Only a caption that names the total with VAT or the amount due counts; a line-item
// table's last column ("Totaal", "Bedrag") holds each line's amount, not the invoice's.
function columnHeaderKind(
  lines: string[],
  row: number,
  findMoney: (line: string) => unknown[],
): InvoiceLabelKind | null {
  for (let j = row - 1; j >= Math.max(0, row - 4); j--) {
    const line = lines[j] ?? "";
    if (findMoney(line).length > 0) {
      if (isNumberRow(line)) continue;
      return null;
    }
    const header = cells(line);
    if (header.length < 2) return null;
    const kind = classifyLabel(header[header.length - 1] ?? "");
    return kind === "gross" || kind === "due" ? kind : null;
  }
  return null;
}

// A row of a table's amounts: no words, apart from a currency code.
function isNumberRow(line: string): boolean {
  return !/\p{L}{2,}/u.test(line.replace(/\b(?:EUR|USD|GBP|CHF|euro)\b/gi, ""));
}

const CURRENCY_ONLY = /^(?:EUR|USD|GBP|CHF|euro)$/i;

function cells(text: string): string[] {
  return text.split("\t").map((c) => c.trim());
}

function lastCellWithLetters(text: string): string | null {
  // A currency code in a cell of its own ("EUR" in a column before the amounts) is no label.
  const withLetters = cells(text).filter((c) => /\p{L}{2,}/u.test(c) && !CURRENCY_ONLY.test(c));
  return withLetters[withLetters.length - 1] ?? null;
}

function lastCell(text: string): string {
  const all = cells(text);
  return all[all.length - 1] ?? "";
}

function firstCell(text: string): string {
  return cells(text).find((c) => c.length > 0) ?? "";
}
