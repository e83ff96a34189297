/**
 * What an amount on an invoice is, by its label:
 * - `due`: the amount still to pay ("Te betalen", "Amount due", "Zahlbetrag", "Net à payer");
 * - `paid`: an amount already paid ("Reeds betaald", "Amount paid", "Anzahlung", "Acompte");
 * - `gross`: the invoice total including VAT ("Totaal incl. btw", "Grand total", "Bruttosumme",
 *   "Rechnungsbetrag", "Total TTC");
 * - `net`: a total without VAT ("Subtotaal", "Totaal excl. btw", "Nettosumme", "Total HT");
 *   never taken for the total;
 * - `vat`: the VAT ("BTW 21%", "VAT", "MwSt.", "TVA");
 * - `total`: a plain "Totaal", "Total", "Summe", "Gesamt", taken for the total only when no `gross`
 *   label is found.
 */
export type InvoiceLabelKind = "due" | "paid" | "gross" | "net" | "vat" | "total";

// The labels, in Dutch, English, German and French (issue 30, point 3). Each list is tried in the
// order of `ORDER` below, so "Totaal te betalen" is `due` before it is `total`, "Total incl. VAT"
// is `gross` before its "VAT" makes it `vat`, and "Net à payer" is `due` before its "net" makes it
// `net`. Words are matched whole, case-insensitively, with their diacritics.
const W = (source: string) => new RegExp(`(?<![\\p{L}\\d])(?:${source})(?![\\p{L}])`, "iu");

const DUE = W(
  [
    // Dutch
    "(?:nog\\s+)?te\\s+betalen",
    "openstaand(?:e)?(?:\\s+(?:bedrag|saldo))?",
    "saldo",
    "te\\s+voldoen",
    "verschuldigd(?:\\s+bedrag)?",
    // English
    "(?:amount|balance|total|sum)\\s+(?:now\\s+)?(?:due|payable|owing|outstanding)",
    "(?:amount|total)\\s+to\\s+(?:be\\s+)?pa(?:y|id)",
    "due\\s+(?:amount|now|payable)",
    "(?:amount|sum)\\s+payable",
    "balance",
    "outstanding(?:\\s+(?:amount|balance))?",
    "please\\s+pay",
    // German
    "zahlbetrag",
    "zu\\s+zahlen(?:der\\s+betrag)?",
    "(?:noch\\s+)?zu\\s+zahlender\\s+betrag",
    "f[äa]lliger\\s+betrag",
    "offener\\s+betrag",
    "restbetrag",
    "(?:noch\\s+)?offen",
    "forderungsbetrag",
    "[üu]berweisungsbetrag",
    // French
    "net\\s+[àa]\\s+payer",
    "(?:reste|montant|total|solde)\\s+[àa]\\s+payer",
    "[àa]\\s+payer",
    "montant\\s+d[ûu]",
    "solde(?:\\s+d[ûu])?",
  ].join("|"),
);

const PAID = W(
  [
    "(?:reeds\\s+|al\\s+)?betaald",
    "voldaan",
    "vooruitbetaald",
    "vooruitbetaling",
    "aanbetaling",
    "ontvangen\\s+betaling(?:en)?",
    "(?:amount\\s+)?paid",
    "prepaid(?:\\s+amount)?",
    "payments?\\s+(?:received|made)",
    "deposit",
    "(?:erhaltene\\s+|geleistete\\s+)?anzahlung(?:en)?",
    "vorauszahlung(?:en)?",
    "(?:bereits\\s+)?(?:bezahlt|gezahlt|beglichen)",
    "acomptes?(?:\\s+vers[ée]s?)?",
    "d[ée]j[àa]\\s+(?:pay[ée]|r[ée]gl[ée]|vers[ée])",
    "pay[ée]",
  ].join("|"),
);

// Words that say VAT is included: they win over a net or VAT word in the same label.
const INCL = W(
  [
    "incl(?:\\.|usief)?",
    "inkl(?:\\.|usive)?",
    "including",
    "inclusive",
    "ttc",
    "brutto(?:betrag|summe)?",
    "gesamtbrutto",
    "bruttobetrag",
    "bruttosumme",
    "gross(?:\\s+(?:total|amount))?",
  ].join("|"),
);

// Names of the invoice's own total: gross unless a net or VAT word qualifies them
// ("Rechnungsbetrag netto", "Totaalbedrag btw").
const GRAND = W(
  [
    "grand\\s+total",
    "invoice\\s+(?:total|amount)",
    "total\\s+(?:invoice\\s+)?amount",
    "totaalbedrag",
    "factuurbedrag",
    "factuurtotaal",
    "eindtotaal",
    "eindbedrag",
    "rechnungs(?:end)?betrag",
    "rechnungssumme",
    "rechnungstotal",
    "gesamtbetrag",
    "gesamtsumme",
    "endbetrag",
    "endsumme",
    // An insurer's invoice: the premium with its insurance tax.
    "(?:rechnungs|gesamt)beitrag",
    "montant\\s+total",
    "total\\s+facture",
  ].join("|"),
);

const NET = W(
  [
    "sub\\s*-?\\s*tota(?:a)?l",
    "subtotaal",
    "excl(?:\\.|usief)?",
    "exkl(?:\\.|usive)?",
    "excluding",
    "exclusive",
    "ex\\.?\\s+(?:btw|vat)",
    "zonder\\s+btw",
    "before\\s+(?:tax|vat)",
    "without\\s+(?:tax|vat)",
    "netto(?:bedrag|betrag|summe|preis)?",
    "nettosumme",
    "gesamtnetto",
    "net(?:\\s+(?:total|amount))?",
    "zwischensumme",
    "ohne\\s+(?:mwst|ust)",
    "warenwert",
    "ht",
    "hors\\s+taxes?",
    "sous\\s*-?\\s*total",
    "taxable\\s+amount",
    "grondslag",
  ].join("|"),
);

const VAT = W(
  [
    "btw",
    "omzetbelasting",
    "vat",
    "tax",
    "gst",
    "sales\\s+tax",
    "mwst\\.?",
    "ust\\.?",
    "umsatzsteuer",
    "mehrwertsteuer",
    "steuer",
    "tva",
    "taxes?",
  ].join("|"),
);

const TOTAL = W(
  ["totaal", "total", "totale", "summe", "gesamt", "somme", "bedrag", "amount", "betrag", "montant"].join(
    "|",
  ),
);

const ORDER: Array<[InvoiceLabelKind, RegExp]> = [
  ["due", DUE],
  ["paid", PAID],
  ["gross", INCL],
  ["net", NET],
  ["vat", VAT],
  ["gross", GRAND],
  ["total", TOTAL],
];

// A label is short: a caption, not a sentence. Longer text before an amount is running text
// ("... van € 121,00 voor ...") whose words say little about the amount.
const MAX_LABEL_CHARS = 60;

/**
 * Tells what the label text before (or after) an amount says the amount is, or null when it is no
 * invoice label. The first kind that matches wins, in the order due, paid, included VAT ("incl.",
 * "TTC", "brutto": gross), net, VAT, the invoice's own total ("Rechnungsbetrag": gross), total.
 *
 * @example
 * classifyLabel("Totaal te betalen:"); // "due"
 * classifyLabel("Total HT"); // "net"
 * classifyLabel("Bruttosumme"); // "gross"
 * classifyLabel("Omschrijving"); // null
 */
export function classifyLabel(text: string): InvoiceLabelKind | null {
  const label = text.replace(/\s+/g, " ").trim();
  if (label.length === 0 || label.length > MAX_LABEL_CHARS || !/\p{L}/u.test(label)) return null;
  for (const [kind, pattern] of ORDER) {
    if (pattern.test(label)) return kind;
  }
  // Letter-spaced or kerned text reaches pdf.js with spaces inside words ("Br uttosumme",
  // "Zahlbetr ag"); read without them, such a label is found again.
  const joined = label.replace(/(?<=\p{L})\s+(?=\p{L})/gu, "");
  if (joined !== label) {
    for (const [kind, pattern] of ORDER) {
      if (pattern.test(joined)) return kind;
    }
  }
  return null;
}
