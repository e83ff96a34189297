import { formatEuro } from "./amounts.js";
import type {
  CheckableAttachment,
  DeclaredInvoice,
  DocumentChecker,
  DocumentCheckInput,
  DocumentWarning,
} from "./document-check-types.js";
import { readAttachmentFacts } from "./internal/attachment-facts.js";
import { type DocumentFacts, normaliseReference } from "./internal/document-facts.js";

/**
 * Options of {@link createRulesDocumentChecker}.
 *
 * @example
 * const options: RulesDocumentCheckerOptions = { minimumTermDays: 14 };
 */
export interface RulesDocumentCheckerOptions {
  /**
   * Shortest payment term a 14-day letter may give. Default 14, the statutory term of art. 6:96
   * lid 6 BW; only a longer term (more favourable to the consumer) may be configured.
   */
  minimumTermDays?: number;
}

interface Doc {
  attachment: CheckableAttachment;
  facts: DocumentFacts;
  /** Declared invoices this document is about. */
  invoices: DeclaredInvoice[];
  isLetter: boolean;
}

/**
 * The offline DocumentChecker (the default): reads an e-invoice's embedded XML (Factur-X /
 * ZUGFeRD, UBL / SI-UBL) first and the extracted text after it, with labels in Dutch, English,
 * German and French, and compares them with the declared data (issue 30).
 *
 * - `ai_invoice_mismatch`: an invoice PDF (document_type `invoice` or null) that belongs to one
 *   declared invoice (by its invoice number in the XML or labelled in the text, by that number in
 *   its text, or because the order has exactly one invoice and one invoice PDF) shows a total
 *   including VAT other than the declared `amount_cents`, and the declared amount is not the
 *   amount the invoice shows as still due either.
 * - `ai_invoice_paid`: the declared amount is the invoice's total, but the invoice shows it paid
 *   in full or in part (an amount due below the total, or an amount paid): the claim may be too
 *   high. Not an `ai_invoice_mismatch`: the amounts agree (issue 30, point 4).
 * - `ai_document_mismatch`: a reminder letter and an invoice PDF disagree on the VAT number, on
 *   whether the debtor's postcode is on them, or the letter names an invoice number that is on no
 *   invoice PDF and not declared.
 * - `wik_letter_detected`: an attachment not declared as `wik_letter` names a term in days,
 *   collection costs and calls itself a reminder (aanmaning, herinnering, ingebrekestelling,
 *   sommatie): the marks of a 14-day letter.
 * - `wik_letter_incomplete`: a declared `wik_letter` lacks a term of at least 14 days (the term of
 *   the sentence asking for payment), lets that term start on or after the letter's date instead
 *   of after receipt, or lacks the consequence of not paying or the amount of the collection costs
 *   (art. 6:96 lid 6 BW; see shared data wik/RULES.md §1.3).
 *
 * A document without text (a scan) is skipped: the rules cannot read it.
 *
 * @example
 * const checker = createRulesDocumentChecker();
 * const warnings = await runDocumentCheck(checker, { debtors, invoices, attachments });
 */
export function createRulesDocumentChecker(options: RulesDocumentCheckerOptions = {}): DocumentChecker {
  const minimumTermDays = Math.max(14, options.minimumTermDays ?? 14);
  return {
    name: "rules",
    async check(input, context) {
      const docs: Doc[] = [];
      for (const attachment of input.attachments) {
        if (attachment.text.trim().length === 0 && (attachment.embedded_xml ?? []).length === 0) {
          context.logger.warn("document check skipped an attachment without text", {
            checker: "rules",
            attachment: attachment.index,
          });
          continue;
        }
        const facts = readAttachmentFacts(attachment);
        docs.push({
          attachment,
          facts,
          invoices: [],
          isLetter: attachment.document_type === "wik_letter" || looksLikeWikLetter(facts),
        });
      }
      linkInvoices(docs, input);
      return [
        ...invoiceMismatches(docs),
        ...documentMismatches(docs, input),
        ...detectedLetters(docs),
        ...incompleteLetters(docs, minimumTermDays),
      ];
    },
  };
}

// All three marks are required: an invoice's footer often names a term and collection costs
// ("betaling binnen 14 dagen, daarna zijn incassokosten verschuldigd") but does not call itself a
// reminder.
function looksLikeWikLetter(facts: DocumentFacts): boolean {
  const w = facts.wik;
  return w.termDays !== null && w.mentionsCosts && w.reminderWord;
}

function linkInvoices(docs: Doc[], input: DocumentCheckInput): void {
  const byNumber = new Map(input.invoices.map((i) => [normaliseReference(i.invoice_number), i]));
  for (const doc of docs) {
    const labelled = doc.facts.invoiceNumbers.flatMap((n) => byNumber.get(n) ?? []);
    if (labelled.length > 0) {
      doc.invoices = unique(labelled);
      continue;
    }
    // A declared number found anywhere in the text, as a whole token. Numbers shorter than three
    // characters ("1", "12") would match dates and amounts, so they count only when labelled.
    const text = normaliseReference(doc.attachment.text);
    doc.invoices = input.invoices.filter((i) => {
      const n = normaliseReference(i.invoice_number);
      return n.length >= 3 && new RegExp(`(?<![A-Z0-9])${escapeRegExp(n)}(?![A-Z0-9])`).test(text);
    });
  }
  const invoiceDocs = docs.filter((d) => !d.isLetter && d.attachment.document_type === "invoice");
  const only = input.invoices.length === 1 ? input.invoices[0] : undefined;
  if (only && invoiceDocs.length === 1 && invoiceDocs[0] && invoiceDocs[0].invoices.length === 0) {
    invoiceDocs[0].invoices = [only];
  }
}

function invoiceMismatches(docs: Doc[]): DocumentWarning[] {
  const warnings: DocumentWarning[] = [];
  for (const doc of docs) {
    if (doc.isLetter || doc.attachment.document_type === "other") continue;
    const [invoice, ...more] = doc.invoices;
    // A document about several invoices (a statement) has no single total to compare.
    if (!invoice || more.length > 0) continue;
    const { totalCents: total, currency } = doc.facts;
    const due = amountDue(doc.facts);
    const declared = invoice.amount_cents;
    const name = doc.attachment.filename;
    if (total === null) continue;
    if (declared === total) {
      if (due !== null && due < total) {
        warnings.push({
          code: "ai_invoice_paid",
          message: `Volgens bijlage "${name}" is factuur ${invoice.invoice_number} ${due <= 0 ? "al betaald" : "al gedeeltelijk betaald"}: het totaal is ${formatMoney(total, currency)}, nog te betalen ${formatMoney(Math.max(0, due), currency)}. Het opgegeven bedrag (${formatEuro(declared)}) is het volle totaal en is aangehouden.`,
          invoice_number: invoice.invoice_number,
        });
      }
      continue;
    }
    // The declared amount may be what is still open after a deposit or a partial payment.
    if (due !== null && declared === due) continue;
    warnings.push({
      code: "ai_invoice_mismatch",
      message: `Het totaalbedrag in bijlage "${name}" (${formatMoney(total, currency)}) wijkt af van het opgegeven bedrag van factuur ${invoice.invoice_number} (${formatEuro(declared)}). Het opgegeven bedrag is aangehouden.`,
      invoice_number: invoice.invoice_number,
    });
  }
  return warnings;
}

// What the invoice shows as still to pay: its amount due, else its total less an amount paid.
function amountDue(facts: DocumentFacts): number | null {
  if (facts.dueCents !== null) return facts.dueCents;
  if (facts.paidCents !== null && facts.totalCents !== null) return facts.totalCents - facts.paidCents;
  return null;
}

// Amounts in euro the Dutch way; another currency (an invoice in GBP) with its ISO code.
function formatMoney(cents: number, currency: string | null): string {
  if (currency === null || currency === "EUR") return formatEuro(cents);
  return `${currency} ${formatEuro(cents).replace(/^(-?)€ /, "$1")}`;
}

function documentMismatches(docs: Doc[], input: DocumentCheckInput): DocumentWarning[] {
  const warnings: DocumentWarning[] = [];
  const letters = docs.filter((d) => d.isLetter);
  const invoiceDocs = docs.filter((d) => !d.isLetter && d.attachment.document_type !== "other");
  const debtorPostcodes = new Set(
    input.debtors
      .filter((d) => (d.address.country ?? "NL").toUpperCase() === "NL")
      .map((d) => d.address.postal_code.toUpperCase().replace(/\s/g, "")),
  );
  const knownNumbers = new Set([
    ...input.invoices.map((i) => normaliseReference(i.invoice_number)),
    ...invoiceDocs.flatMap((d) => d.facts.invoiceNumbers),
  ]);
  for (const letter of letters) {
    const letterName = letter.attachment.filename;
    const letterNumbers = letter.facts.invoiceNumbers;
    const unknown = letterNumbers.filter((n) => !knownNumbers.has(n));
    for (const n of unknown) {
      warnings.push({
        code: "ai_document_mismatch",
        message: `De aanmaning "${letterName}" noemt factuurnummer ${n}, dat niet bij de opgegeven facturen of in de factuurbijlagen voorkomt.`,
        invoice_number: null,
      });
    }
    for (const invoice of invoiceDocs) {
      const invoiceName = invoice.attachment.filename;
      const about = invoice.invoices.length === 1 ? (invoice.invoices[0]?.invoice_number ?? null) : null;
      // The invoice's own number (its XML's BT-1 first, else its labelled numbers) should be one
      // the letter names. Only once every number on the letter is known: an unknown one is
      // already reported above, and says the same.
      const own = invoice.facts.structuredInvoiceNumber
        ? [invoice.facts.structuredInvoiceNumber]
        : invoice.facts.invoiceNumbers;
      if (unknown.length === 0 && own.length > 0 && letterNumbers.length > 0) {
        if (!own.some((n) => letterNumbers.includes(n))) {
          warnings.push({
            code: "ai_document_mismatch",
            message: `Het factuurnummer op "${invoiceName}" (${own.join(", ")}) staat niet in de aanmaning "${letterName}", die factuurnummer ${letterNumbers.join(", ")} noemt.`,
            invoice_number: about,
          });
        }
      }
      // The seller's VAT number: from the e-invoice's XML where it has one (the text may also
      // carry the buyer's), else every VAT number in the invoice's text.
      const a =
        invoice.facts.sellerVatNumbers.length > 0 ? invoice.facts.sellerVatNumbers : invoice.facts.vatNumbers;
      const b = letter.facts.vatNumbers;
      if (a.length > 0 && b.length > 0 && !a.some((v) => b.includes(v))) {
        warnings.push({
          code: "ai_document_mismatch",
          message: `Het btw-nummer op "${invoiceName}" (${a.join(", ")}) verschilt van dat op de aanmaning "${letterName}" (${b.join(", ")}).`,
          invoice_number: about,
        });
      }
      // The debtor's address: the e-invoice's XML names the buyer's postcode (BT-53), which the
      // letter, addressed to the same debtor, should carry.
      const buyer = invoice.facts.buyerPostcode;
      if (buyer !== null && letter.facts.postcodes.length > 0) {
        if (!letter.facts.postcodes.includes(buyer)) {
          warnings.push({
            code: "ai_document_mismatch",
            message: `Het adres van de debiteur verschilt tussen "${invoiceName}" en de aanmaning "${letterName}": de factuur is gericht aan postcode ${buyer.slice(0, 4)} ${buyer.slice(4)}, die niet op de aanmaning staat.`,
            invoice_number: about,
          });
        }
      } else if (
        debtorPostcodes.size > 0 &&
        invoice.facts.postcodes.length > 0 &&
        letter.facts.postcodes.length > 0
      ) {
        const onInvoice = invoice.facts.postcodes.some((p) => debtorPostcodes.has(p));
        const onLetter = letter.facts.postcodes.some((p) => debtorPostcodes.has(p));
        if (onInvoice !== onLetter) {
          warnings.push({
            code: "ai_document_mismatch",
            message: `Het adres van de debiteur verschilt tussen "${invoiceName}" en de aanmaning "${letterName}": de opgegeven postcode staat ${onInvoice ? "wel op de factuur maar niet op de aanmaning" : "wel op de aanmaning maar niet op de factuur"}.`,
            invoice_number: about,
          });
        }
      }
    }
  }
  return warnings;
}

function detectedLetters(docs: Doc[]): DocumentWarning[] {
  return docs
    .filter((d) => d.attachment.document_type !== "wik_letter" && looksLikeWikLetter(d.facts))
    .map((d) => ({
      code: "wik_letter_detected" as const,
      message: `Bijlage "${d.attachment.filename}" lijkt een veertiendagenbrief (aanmaning met betalingstermijn en incassokosten), maar is niet als wik_letter opgegeven.`,
      invoice_number: d.invoices.length === 1 ? (d.invoices[0]?.invoice_number ?? null) : null,
    }));
}

function incompleteLetters(docs: Doc[], minimumTermDays: number): DocumentWarning[] {
  const warnings: DocumentWarning[] = [];
  for (const d of docs) {
    if (d.attachment.document_type !== "wik_letter") continue;
    const w = d.facts.wik;
    const missing: string[] = [];
    // Art. 6:96 lid 6 BW: a term of fourteen days, starting the day after the reminder, the
    // consequences of not paying, and the amount of the collection costs.
    if (w.termDays === null) missing.push(`een betalingstermijn van ten minste ${minimumTermDays} dagen`);
    else if (w.termDays < minimumTermDays)
      missing.push(
        `een betalingstermijn van ten minste ${minimumTermDays} dagen (genoemd: ${w.termDays} dagen)`,
      );
    // The term runs from the day after the reminder (wik/RULES.md §1.3), and a written reminder is
    // made when it reaches the debtor (art. 3:37 lid 3 BW), so a term counted from the letter's
    // date gives less than 14 days after receipt; one counted from the date itself ("vanaf
    // dagtekening") even by the letter's own dating (decision pdf-guard-wik-term-start). A letter
    // that does not say when the term starts gets no warning for that.
    if (w.termStart === "from_letter_date")
      missing.push(
        "een termijn die pas begint na de dag van ontvangst (de brief laat de termijn ingaan op de datum van de brief)",
      );
    else if (w.termStart === "after_letter_date")
      missing.push(
        "een termijn die begint na de dag van ontvangst (de brief rekent de termijn vanaf de datum van de brief)",
      );
    if (!w.namesConsequence) missing.push("de gevolgen van niet betalen");
    if (w.costsCents === null) missing.push("het bedrag van de incassokosten");
    if (missing.length === 0) continue;
    warnings.push({
      code: "wik_letter_incomplete",
      message: `De veertiendagenbrief "${d.attachment.filename}" mist wat art. 6:96 lid 6 BW vereist: ${joinDutch(missing)}.`,
      invoice_number: d.invoices.length === 1 ? (d.invoices[0]?.invoice_number ?? null) : null,
    });
  }
  return warnings;
}

function joinDutch(parts: string[]): string {
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} en ${parts[parts.length - 1]}`;
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}
