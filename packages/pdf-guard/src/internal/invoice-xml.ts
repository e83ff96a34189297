import { XMLParser } from "fast-xml-parser";

/**
 * The facts of a structured invoice (EN 16931), read from the XML an e-invoice PDF carries:
 * UN/CEFACT CII (Factur-X, ZUGFeRD 2, XRechnung CII; and ZUGFeRD 1's CrossIndustryDocument) or
 * OASIS UBL 2 (Invoice, CreditNote; the Dutch SI-UBL / NLCIUS profile, XRechnung UBL).
 */
export interface StructuredInvoice {
  syntax: "cii" | "ubl";
  /** BT-1, the invoice number. */
  invoiceNumber: string | null;
  /** BT-112, the invoice total with VAT, in cents. */
  totalCents: number | null;
  /** BT-115, the amount due for payment, in cents. */
  dueCents: number | null;
  /** BT-113, the amount paid in advance, in cents. */
  paidCents: number | null;
  /** BT-5, the invoice currency code. */
  currency: string | null;
  /** BT-31, the seller's VAT identifier(s), normalised (upper case, no spaces or dots). */
  sellerVatNumbers: string[];
  /** BT-44, the buyer's name. */
  buyerName: string | null;
  /** BT-48, the buyer's VAT identifier, normalised. */
  buyerVatNumber: string | null;
  /** BT-53, the post code of the buyer's address, as written. */
  buyerPostcode: string | null;
  /** BT-55, the country code of the buyer's address. */
  buyerCountry: string | null;
}

// Values are kept as text (no number conversion: "0529.870" must not lose digits), and namespace
// prefixes are dropped so rsm:, ram: and udt: (or any prefix a generator picks) read alike. A
// document with a DOCTYPE is not parsed at all (see readInvoiceXml), so only the XML's own five
// entities (&amp; and the like) are ever expanded.
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

type Node = Record<string, unknown>;

/**
 * Reads a structured invoice from XML text, or returns null when the text is no CII or UBL invoice
 * (or no well-formed XML at all, or declares a DOCTYPE). Never throws.
 *
 * @example
 * const invoice = readInvoiceXml(xml);
 * invoice?.totalCents; // 52987 for a GrandTotalAmount of 529.87
 */
export function readInvoiceXml(xml: string): StructuredInvoice | null {
  // EN 16931's CII and UBL schemas declare no DTD; a DOCTYPE can only bring entities (expansion
  // bombs, external references), so such a file is no invoice to this reader.
  if (/<!DOCTYPE/i.test(xml)) return null;
  let doc: Node;
  try {
    doc = parser.parse(xml) as Node;
  } catch {
    return null;
  }
  const cii = obj(doc.CrossIndustryInvoice);
  if (cii) return readCiiFamily(cii, CII);
  const zf1 = obj(doc.CrossIndustryDocument);
  if (zf1) return readCiiFamily(zf1, ZUGFERD_1);
  const ubl = obj(doc.Invoice) ?? obj(doc.CreditNote);
  if (ubl) return found(readUbl(ubl));
  return null;
}

// An "Invoice" root of some other vocabulary (an early ZUGFeRD draft, a vendor format) yields
// nothing UBL names: that is no structured invoice.
function found(invoice: StructuredInvoice): StructuredInvoice | null {
  return invoice.invoiceNumber === null && invoice.totalCents === null && invoice.dueCents === null
    ? null
    : invoice;
}

// The element names of the CII family: CII (UN/CEFACT SCRDM 16B, Factur-X / ZUGFeRD 2.x /
// XRechnung), where the header's agreement names the parties and the header's settlement holds the
// monetary summation, and ZUGFeRD 1.0 (CrossIndustryDocument), the same facts under older names.
interface CiiNames {
  transaction: string;
  agreement: string;
  settlement: string;
  summation: string;
  document: string;
}
const CII: CiiNames = {
  transaction: "SupplyChainTradeTransaction",
  agreement: "ApplicableHeaderTradeAgreement",
  settlement: "ApplicableHeaderTradeSettlement",
  summation: "SpecifiedTradeSettlementHeaderMonetarySummation",
  document: "ExchangedDocument",
};
const ZUGFERD_1: CiiNames = {
  transaction: "SpecifiedSupplyChainTradeTransaction",
  agreement: "ApplicableSupplyChainTradeAgreement",
  settlement: "ApplicableSupplyChainTradeSettlement",
  summation: "SpecifiedTradeSettlementMonetarySummation",
  document: "HeaderExchangedDocument",
};

function readCiiFamily(root: Node, names: CiiNames): StructuredInvoice {
  const transaction = path(root, names.transaction);
  const agreement = path(transaction, names.agreement);
  const settlement = path(transaction, names.settlement);
  const currency = text(path(settlement, "InvoiceCurrencyCode"));
  const sums = path(settlement, names.summation);
  return {
    syntax: "cii",
    invoiceNumber: text(path(root, names.document, "ID")),
    totalCents: amount(path(sums, "GrandTotalAmount"), currency),
    dueCents: amount(path(sums, "DuePayableAmount"), currency),
    paidCents: amount(path(sums, "TotalPrepaidAmount"), currency),
    currency,
    sellerVatNumbers: vatRegistrations(path(agreement, "SellerTradeParty")),
    buyerName: text(path(agreement, "BuyerTradeParty", "Name")),
    buyerVatNumber: vatRegistrations(path(agreement, "BuyerTradeParty"))[0] ?? null,
    buyerPostcode: text(path(agreement, "BuyerTradeParty", "PostalTradeAddress", "PostcodeCode")),
    buyerCountry: text(path(agreement, "BuyerTradeParty", "PostalTradeAddress", "CountryID")),
  };
}

// UBL 2.1 (EN 16931 UBL binding, SI-UBL 2.0 / NLCIUS): LegalMonetaryTotal holds BT-112, BT-113
// and BT-115; the parties' PartyTaxScheme with TaxScheme ID "VAT" holds their VAT identifiers.
function readUbl(root: Node): StructuredInvoice {
  const currency = text(root.DocumentCurrencyCode);
  const totals = path(root, "LegalMonetaryTotal");
  const buyer = path(root, "AccountingCustomerParty", "Party");
  const partyVat = (party: unknown) =>
    list(path(party, "PartyTaxScheme"))
      .filter((scheme) => {
        const id = text(path(scheme, "TaxScheme", "ID"));
        return id === null || id.toUpperCase() === "VAT";
      })
      .flatMap((scheme) => normalisedVat(text(path(scheme, "CompanyID"))));
  return {
    syntax: "ubl",
    invoiceNumber: text(root.ID),
    totalCents: amount(path(totals, "TaxInclusiveAmount"), currency),
    dueCents: amount(path(totals, "PayableAmount"), currency),
    paidCents: amount(path(totals, "PrepaidAmount"), currency),
    currency,
    sellerVatNumbers: partyVat(path(root, "AccountingSupplierParty", "Party")),
    buyerName:
      text(path(buyer, "PartyLegalEntity", "RegistrationName")) ?? text(path(buyer, "PartyName", "Name")),
    buyerVatNumber: partyVat(buyer)[0] ?? null,
    buyerPostcode: text(path(buyer, "PostalAddress", "PostalZone")),
    buyerCountry: text(path(buyer, "PostalAddress", "Country", "IdentificationCode")),
  };
}

// CII: SpecifiedTaxRegistration/ID with schemeID "VA" is the VAT identifier ("FC" is a tax number).
function vatRegistrations(party: unknown): string[] {
  return list(path(party, "SpecifiedTaxRegistration"))
    .map((registration) => path(registration, "ID"))
    .filter((id) => attribute(id, "schemeID")?.toUpperCase() === "VA")
    .flatMap((id) => normalisedVat(text(id)));
}

function normalisedVat(value: string | null): string[] {
  if (value === null) return [];
  const v = value.toUpperCase().replace(/[\s.-]/g, "");
  return v.length > 0 ? [v] : [];
}

/** A decimal amount ("529.87", "-12.5", "1000") in cents; the one in the invoice currency when there are several. */
function amount(node: unknown, currency: string | null): number | null {
  const nodes = list(node);
  const chosen = nodes.find((n) => currency !== null && attribute(n, "currencyID") === currency) ?? nodes[0];
  const value = text(chosen);
  if (value === null) return null;
  const m = /^([+-]?)(\d{1,13})(?:\.(\d+))?$/.exec(value);
  if (!m) return null;
  const fraction = (m[3] ?? "").padEnd(3, "0");
  // Half away from zero at the third decimal: EN 16931 amounts have two decimals, a third is rare.
  const cents = Number(m[2]) * 100 + Number(fraction.slice(0, 2)) + (Number(fraction.charAt(2)) >= 5 ? 1 : 0);
  return m[1] === "-" ? -cents : cents;
}

function obj(value: unknown): Node | null {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === "object" && first !== null ? (first as Node) : null;
}

function list(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function path(node: unknown, ...names: string[]): unknown {
  let current: unknown = node;
  for (const name of names) {
    const o = obj(current);
    if (!o) return undefined;
    current = o[name];
  }
  return current;
}

function text(node: unknown): string | null {
  const first = Array.isArray(node) ? node[0] : node;
  if (typeof first === "string") return first.trim() || null;
  if (typeof first === "number") return String(first);
  const o = obj(first);
  const inner = o?.["#text"];
  if (typeof inner === "string" || typeof inner === "number") return String(inner).trim() || null;
  return null;
}

function attribute(node: unknown, name: string): string | null {
  const value = obj(node)?.[`@${name}`];
  return typeof value === "string" ? value : null;
}
