import { describe, expect, it } from "vitest";
import { readInvoiceXml } from "./invoice-xml.js";
import { ciiInvoiceXml, ublInvoiceXml } from "./testing/e-invoices.js";

describe("readInvoiceXml", () => {
  it("reads a Factur-X / ZUGFeRD (CII) invoice: total, amount due, number, seller VAT, buyer", () => {
    const xml = ciiInvoiceXml({ number: "F-2026-001", total: "1053.00", due: "853.00", prepaid: "200.00" });
    expect(readInvoiceXml(xml)).toEqual({
      syntax: "cii",
      invoiceNumber: "F-2026-001",
      totalCents: 105300,
      dueCents: 85300,
      paidCents: 20000,
      currency: "EUR",
      sellerVatNumbers: ["NL000099998B57"],
      buyerName: "Voorbeeld & Zn B.V.",
      buyerVatNumber: null,
      buyerPostcode: null,
      buyerCountry: null,
    });
  });

  it("reads a UBL (SI-UBL / NLCIUS) invoice", () => {
    const xml = ublInvoiceXml({
      number: "2026-17",
      total: "121.00",
      due: "121.00",
      sellerVat: "NL 0000.99.998.B57",
    });
    expect(readInvoiceXml(xml)).toEqual({
      syntax: "ubl",
      invoiceNumber: "2026-17",
      totalCents: 12100,
      dueCents: 12100,
      paidCents: null,
      currency: "EUR",
      sellerVatNumbers: ["NL000099998B57"],
      buyerName: "Voorbeeld B.V.",
      buyerVatNumber: null,
      buyerPostcode: null,
      buyerCountry: null,
    });
  });

  it("reads the buyer's postcode and country from CII and UBL", () => {
    const facts = { number: "F-1", total: "1.00", due: "1.00", buyerPostcode: "9999 ZZ" };
    const cii = readInvoiceXml(ciiInvoiceXml(facts));
    const ubl = readInvoiceXml(ublInvoiceXml({ ...facts, buyerCountry: "BE", buyerPostcode: "1000" }));
    expect([cii?.buyerPostcode, cii?.buyerCountry, ubl?.buyerPostcode, ubl?.buyerCountry]).toEqual([
      "9999 ZZ",
      "NL",
      "1000",
      "BE",
    ]);
  });

  it("reads a ZUGFeRD 1.0 invoice (CrossIndustryDocument)", () => {
    const xml = `<?xml version="1.0"?><rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12">
<rsm:HeaderExchangedDocument><ram:ID>471102</ram:ID></rsm:HeaderExchangedDocument>
<rsm:SpecifiedSupplyChainTradeTransaction><ram:ApplicableSupplyChainTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
<ram:SpecifiedTradeSettlementMonetarySummation><ram:GrandTotalAmount currencyID="EUR">235.62</ram:GrandTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation>
</ram:ApplicableSupplyChainTradeSettlement></rsm:SpecifiedSupplyChainTradeTransaction></rsm:CrossIndustryDocument>`;
    const invoice = readInvoiceXml(xml);
    expect([invoice?.invoiceNumber, invoice?.totalCents, invoice?.dueCents]).toEqual(["471102", 23562, null]);
  });

  it("rounds a third decimal and keeps the sign of a credit", () => {
    const xml = ciiInvoiceXml({ number: "C-1", total: "-10.005", due: "-10.005" });
    expect(readInvoiceXml(xml)?.totalCents).toBe(-1001);
  });

  it("returns null for XML that is no invoice, and for text that is no XML", () => {
    expect(readInvoiceXml("<order><id>1</id></order>")).toBeNull();
    expect(readInvoiceXml("<Invoice><Nummer>1</Nummer></Invoice>")).toBeNull();
    expect(readInvoiceXml("not xml at all")).toBeNull();
    expect(readInvoiceXml("")).toBeNull();
  });

  it("does not read a document with a DOCTYPE, whose entities could expand", () => {
    const xml = `<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY n "999">]><Invoice><ID>&n;</ID><LegalMonetaryTotal><PayableAmount>1.00</PayableAmount></LegalMonetaryTotal></Invoice>`;
    expect(readInvoiceXml(xml)).toBeNull();
  });
});
