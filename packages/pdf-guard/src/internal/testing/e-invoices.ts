// E-invoice fixtures made on the fly: PDFs with text placed at given positions (columns, amounts
// before or after their labels) and, optionally, an embedded Factur-X (CII) or UBL invoice. Test
// and benchmark use only; never exported from the package.
import { PDFDocument, StandardFonts } from "pdf-lib";

/** A piece of text at a position on an A4 page (points from the bottom left). */
export interface PlacedText {
  text: string;
  x: number;
  y: number;
  size?: number;
}

/** Options of {@link makeLayoutPdf}. */
export interface LayoutPdfOptions {
  /** The pieces of text of each page. */
  pages: PlacedText[][];
  /** Files to embed (/EmbeddedFiles), such as `factur-x.xml`. */
  attachments?: Array<{ name: string; content: string; mimeType?: string }>;
}

/** A PDF with text at the given positions (Helvetica, WinAnsi) and optional embedded files. */
export async function makeLayoutPdf(options: LayoutPdfOptions): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setProducer("incasso test fixtures");
  doc.setCreationDate(new Date(Date.UTC(2026, 0, 1)));
  doc.setModificationDate(new Date(Date.UTC(2026, 0, 1)));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const pieces of options.pages) {
    const page = doc.addPage([595, 842]);
    for (const p of pieces) page.drawText(p.text, { x: p.x, y: p.y, size: p.size ?? 10, font });
  }
  for (const file of options.attachments ?? []) {
    await doc.attach(new TextEncoder().encode(file.content), file.name, {
      mimeType: file.mimeType ?? "text/xml",
      description: "Factur-X/UBL invoice",
      creationDate: new Date(Date.UTC(2026, 0, 1)),
      modificationDate: new Date(Date.UTC(2026, 0, 1)),
    });
  }
  return doc.save({ useObjectStreams: false });
}

/** The facts an e-invoice fixture carries. */
export interface EInvoiceFacts {
  number: string;
  /** Decimal strings as the XML writes them, such as "1053.00". */
  total: string;
  due: string;
  prepaid?: string;
  currency?: string;
  sellerVat?: string;
  buyerName?: string;
  /** The buyer's address: postcode and country code (BT-53, BT-55); left out when not given. */
  buyerPostcode?: string;
  buyerCountry?: string;
}

/** A Factur-X / ZUGFeRD 2 (UN/CEFACT CII, EN 16931 profile) invoice with the given facts. */
export function ciiInvoiceXml(f: EInvoiceFacts): string {
  const cur = f.currency ?? "EUR";
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
  <rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
  <rsm:ExchangedDocument><ram:ID>${f.number}</ram:ID><ram:TypeCode>380</ram:TypeCode></rsm:ExchangedDocument>
  <rsm:SupplyChainTradeTransaction>
    <ram:IncludedSupplyChainTradeLineItem><ram:SpecifiedLineTradeSettlement><ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>1.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement></ram:IncludedSupplyChainTradeLineItem>
    <ram:ApplicableHeaderTradeAgreement>
      <ram:SellerTradeParty><ram:Name>Leverancier B.V.</ram:Name>
        <ram:SpecifiedTaxRegistration><ram:ID schemeID="FC">201/113/40209</ram:ID></ram:SpecifiedTaxRegistration>
        <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">${f.sellerVat ?? "NL000099998B57"}</ram:ID></ram:SpecifiedTaxRegistration>
      </ram:SellerTradeParty>
      <ram:BuyerTradeParty><ram:Name>${f.buyerName ?? "Voorbeeld &amp; Zn B.V."}</ram:Name>${f.buyerPostcode ? `<ram:PostalTradeAddress><ram:PostcodeCode>${f.buyerPostcode}</ram:PostcodeCode><ram:LineOne>Teststraat 10</ram:LineOne><ram:CityName>Testdorp</ram:CityName><ram:CountryID>${f.buyerCountry ?? "NL"}</ram:CountryID></ram:PostalTradeAddress>` : ""}</ram:BuyerTradeParty>
    </ram:ApplicableHeaderTradeAgreement>
    <ram:ApplicableHeaderTradeSettlement>
      <ram:InvoiceCurrencyCode>${cur}</ram:InvoiceCurrencyCode>
      <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
        <ram:LineTotalAmount>1.00</ram:LineTotalAmount>
        <ram:TaxTotalAmount currencyID="${cur}">0.21</ram:TaxTotalAmount>
        <ram:GrandTotalAmount>${f.total}</ram:GrandTotalAmount>
        <ram:TotalPrepaidAmount>${f.prepaid ?? "0.00"}</ram:TotalPrepaidAmount>
        <ram:DuePayableAmount>${f.due}</ram:DuePayableAmount>
      </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
    </ram:ApplicableHeaderTradeSettlement>
  </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>`;
}

/** A UBL 2.1 invoice in the Dutch SI-UBL 2.0 (NLCIUS) profile with the given facts. */
export function ublInvoiceXml(f: EInvoiceFacts): string {
  const cur = f.currency ?? "EUR";
  return `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:nen.nl:nlcius:v1.0</cbc:CustomizationID>
  <cbc:ID>${f.number}</cbc:ID>
  <cbc:IssueDate>2026-09-01</cbc:IssueDate>
  <cbc:DocumentCurrencyCode>${cur}</cbc:DocumentCurrencyCode>
  <cac:AccountingSupplierParty><cac:Party>
    <cac:PartyTaxScheme><cbc:CompanyID>${f.sellerVat ?? "NL000099998B57"}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
    <cac:PartyLegalEntity><cbc:RegistrationName>Leverancier B.V.</cbc:RegistrationName><cbc:CompanyID schemeID="0106">99999999</cbc:CompanyID></cac:PartyLegalEntity>
  </cac:Party></cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty><cac:Party>
    <cac:PartyName><cbc:Name>Handelsnaam</cbc:Name></cac:PartyName>${
      f.buyerPostcode
        ? `
    <cac:PostalAddress><cbc:StreetName>Teststraat 10</cbc:StreetName><cbc:CityName>Testdorp</cbc:CityName><cbc:PostalZone>${f.buyerPostcode}</cbc:PostalZone><cac:Country><cbc:IdentificationCode>${f.buyerCountry ?? "NL"}</cbc:IdentificationCode></cac:Country></cac:PostalAddress>`
        : ""
    }
    <cac:PartyLegalEntity><cbc:RegistrationName>${f.buyerName ?? "Voorbeeld B.V."}</cbc:RegistrationName></cac:PartyLegalEntity>
  </cac:Party></cac:AccountingCustomerParty>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="${cur}">1.00</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount currencyID="${cur}">1.00</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="${cur}">${f.total}</cbc:TaxInclusiveAmount>
    ${f.prepaid ? `<cbc:PrepaidAmount currencyID="${cur}">${f.prepaid}</cbc:PrepaidAmount>` : ""}
    <cbc:PayableAmount currencyID="${cur}">${f.due}</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>
</Invoice>`;
}
