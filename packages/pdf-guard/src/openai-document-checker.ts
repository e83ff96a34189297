import type OpenAI from "openai";
import { z } from "zod";
import {
  type CheckableAttachment,
  DOCUMENT_WARNING_CODES,
  type DocumentChecker,
  type DocumentWarning,
} from "./document-check-types.js";
import { readAttachmentFacts } from "./internal/attachment-facts.js";
import { lazyOpenAIClient, requestStructured } from "./internal/openai-structured.js";
import { toBase64 } from "./internal/to-base64.js";

/**
 * Options of {@link createOpenAIDocumentChecker}.
 *
 * @example
 * const options: OpenAIDocumentCheckerOptions = { apiKey: process.env.OPENAI_API_KEY ?? "", model: "gpt-4.1-mini" };
 */
export interface OpenAIDocumentCheckerOptions {
  /** The OpenAI API key. */
  apiKey: string;
  /** Model that reads PDFs as input_file. Default `gpt-4.1-mini`. */
  model?: string;
  /** Other endpoint, for a proxy, Azure-compatible gateway or a test server. */
  baseURL?: string;
  /** Time per HTTP attempt, in ms. Default 60 000. */
  timeoutMs?: number;
  /** Retries on 429, 5xx and connection errors (the SDK's backoff). Default 1. */
  maxRetries?: number;
  /** Most PDF bytes sent as files in one request; beyond it, only the extracted text. Default 20 MiB. */
  maxFileBytes?: number;
  /** An existing client to reuse; then `apiKey`, `baseURL`, `timeoutMs` and `maxRetries` are ignored. */
  client?: OpenAI;
}

/** The answer the model must give; validated again after the call. */
const AnswerSchema = z.object({
  warnings: z.array(
    z.object({
      code: z.enum(DOCUMENT_WARNING_CODES),
      message: z.string().min(1).max(1000),
      invoice_number: z.string().max(50).nullable(),
    }),
  ),
});

const INSTRUCTIONS = `Je controleert bijlagen (PDF) van een incasso-opdracht tegen de opgegeven gegevens. De opgegeven gegevens zijn leidend; jij meldt alleen verschillen, als waarschuwing. Geef uitsluitend waarschuwingen met deze codes:
- ai_invoice_mismatch: een totaalbedrag in een factuur-PDF wijkt af van het opgegeven amount_cents van die factuur; zet invoice_number op het opgegeven factuurnummer.
- ai_invoice_paid: het opgegeven amount_cents is het totaal van de factuur, maar de factuur toont dat die al (gedeeltelijk) betaald is (nog te betalen minder dan het totaal); geef dan niet ai_invoice_mismatch.
- ai_document_mismatch: documenten spreken elkaar tegen, bijvoorbeeld adres van de debiteur, factuurnummer of btw-nummer op de factuur tegenover de aanmaning.
- wik_letter_detected: een bijlage die niet als wik_letter is opgegeven is een veertiendagenbrief (aanmaning met termijn van 14 dagen en incassokosten).
- wik_letter_incomplete: een als wik_letter opgegeven brief mist wat art. 6:96 lid 6 BW eist: een betalingstermijn van 14 dagen na de dag van ontvangst, de gevolgen van niet betalen, en het bedrag van de incassokosten.
Schrijf elk bericht in het Nederlands, kort en zakelijk, en noem de bestandsnaam. invoice_number is een opgegeven factuurnummer of null. Bedragen in de gegevens staan in eurocenten. read_facts per bijlage is wat een regelgebaseerde lezer vond (source "xml": bedragen uit de ingesloten e-factuur, exact; "text": uit de tekst, kan missen; invoice_number_xml, seller_vat_numbers en buyer_postcode komen uit de e-factuur als die er is; ocr_pages: pagina's die een scan waren en met OCR gelezen zijn, lees die zelf na). Geen verschil gevonden: geef een lege lijst.`;

/**
 * The DocumentChecker on OpenAI's Responses API: every accepted PDF goes along as an `input_file`
 * (with its extracted text as a fallback), the declared data as JSON, and the answer is constrained
 * by a strict JSON schema and validated with zod. Use it through {@link runDocumentCheck}, which
 * turns a refusal, malformed output, 429 or time-out into "no warnings" and logs why.
 *
 * The `openai` package is an optional peer dependency, imported on the first check (unless
 * `client` is given). When it is not installed, that check fails with a {@link PdfGuardError} of
 * code `openai_not_installed`, which {@link runDocumentCheck} logs.
 *
 * @example
 * const checker = createOpenAIDocumentChecker({ apiKey: process.env.OPENAI_API_KEY ?? "" });
 * const warnings = await runDocumentCheck(checker, input, { timeoutMs: 90_000 });
 */
export function createOpenAIDocumentChecker(options: OpenAIDocumentCheckerOptions): DocumentChecker {
  const model = options.model ?? "gpt-4.1-mini";
  const maxFileBytes = options.maxFileBytes ?? 20 * 1024 * 1024;
  const client = lazyOpenAIClient({
    apiKey: options.apiKey,
    model,
    baseURL: options.baseURL,
    timeoutMs: options.timeoutMs ?? 60_000,
    maxRetries: options.maxRetries ?? 1,
    client: options.client,
  });
  return {
    name: "openai",
    async check(input, context): Promise<DocumentWarning[]> {
      const content: OpenAI.Responses.ResponseInputContent[] = [];
      let sent = 0;
      const listing = input.attachments.map((a) => {
        const asFile = a.bytes !== undefined && sent + a.bytes.length <= maxFileBytes;
        if (asFile && a.bytes) {
          sent += a.bytes.length;
          content.push({
            type: "input_file",
            filename: a.filename,
            file_data: `data:application/pdf;base64,${toBase64(a.bytes)}`,
          });
        }
        return {
          filename: a.filename,
          document_type: a.document_type,
          pages: a.page_count,
          sent_as_file: asFile,
          // The text helps with scans the model reads poorly and stands in for a file not sent.
          extracted_text: a.text.slice(0, asFile ? 4000 : 20000),
          // What the offline reader found, the embedded e-invoice XML first (issue 30, point 7).
          read_facts: readFacts(a),
        };
      });
      const declared = {
        debtors: input.debtors.map((d) => ({
          type: d.type,
          name: [d.company_name, d.first_name, d.middle_name, d.last_name].filter(Boolean).join(" "),
          address: d.address,
        })),
        invoices: input.invoices.map((i) => ({
          invoice_number: i.invoice_number,
          amount_cents: i.amount_cents,
          invoice_date: i.invoice_date ?? null,
        })),
        attachments: listing,
      };
      content.push({ type: "input_text", text: `Opgegeven gegevens (JSON):\n${JSON.stringify(declared)}` });
      const answer = await requestStructured(await client(), {
        model,
        instructions: INSTRUCTIONS,
        content,
        schemaName: "document_check",
        schema: AnswerSchema,
        signal: context.signal,
      });
      return answer.warnings;
    },
  };
}

// The facts the rules checker compares, for the model to check against (issue 30, point 7: one
// set of facts for both checkers, structured data first): amounts, the invoice number, the seller's
// VAT number and the buyer from the e-invoice XML where there is one, else from the text; the
// postcodes the address comparison uses; and which pages were read by OCR.
function readFacts(attachment: CheckableAttachment) {
  const f = readAttachmentFacts(attachment);
  return {
    source: f.source,
    total_cents: f.totalCents,
    amount_due_cents: f.dueCents,
    paid_cents: f.paidCents,
    currency: f.currency,
    invoice_number_xml: f.structuredInvoiceNumber,
    invoice_numbers: f.invoiceNumbers,
    seller_vat_numbers: f.sellerVatNumbers.length > 0 ? f.sellerVatNumbers : f.vatNumbers,
    buyer_name: f.buyerName,
    buyer_postcode: f.buyerPostcode,
    postcodes: f.postcodes,
    ocr_pages: [...(attachment.ocr_pages ?? [])],
  };
}
