// The refusals of the operations the console calls, in Dutch; an unknown code is named in a Dutch
// sentence.
const DUTCH: Record<string, string> = {
  case_not_found: "Deze zaak bestaat niet of is gesloten.",
  invalid_status: "Onbekende status.",
  invalid_payment: "Het bedrag of de datum van de betaling is ongeldig.",
  task_not_found: "Deze taak bestaat niet.",
  task_not_open: "Deze taak is al afgehandeld of afgewezen.",
  invalid_task: "Deze taak is geen betalingsmelding.",
  no_invoices: "De zaak heeft geen facturen; er is geen brief gemaakt.",
  nothing_outstanding: "De betalingen dekken de hoofdsom; er is geen brief gemaakt.",
  letter_not_found: "Deze brief bestaat niet.",
  organisation_not_found: "Deze organisatie bestaat niet.",
  key_not_found: "Deze sleutel bestaat niet.",
  operator_not_found: "Deze medewerker bestaat niet.",
  invalid_operator: "Een medewerker heeft een naam van 1 tot 200 tekens en de rol behandelaar of beheerder.",
  webhook_event_not_found: "Deze gebeurtenis bestaat niet.",
  invalid_webhook_url: "Deze URL kan geen webhook-eindpunt zijn (https vereist, geen privé-adres).",
  invalid_key_settings: "Deze instellingen van de sleutel zijn ongeldig.",
  letter_details_missing: "De organisatie heeft geen IBAN in haar briefgegevens; er is geen brief gemaakt.",
  letter_job_not_found: "Er is geen briefopdracht voor deze order; de brief is al gemaakt.",
  letter_job_running: "De brief wordt op dit moment gemaakt; probeer het zo opnieuw.",
  order_not_on_case: "Deze order hoort niet bij de zaak.",
  webhook_endpoint_not_found: "De organisatie heeft geen webhook-eindpunt; stel er eerst een in.",
  invalid_webhook_secret: "Het geheim van het eindpunt is ongeldig.",
  organisation_conflict: "Deze organisatie bestaat al met een andere schuldeiser.",
  invalid_request: "Het verzoek is ongeldig.",
};

// Why a letter detail was refused, per field (the case system names the field before a colon:
// `iban: … is not a valid IBAN: …`, letter-details.ts); the checks are those of
// decision case-system-letter-details.
const LETTER_DETAIL_REFUSALS: Record<string, string> = {
  sender_name: "De naam van de afzender is te lang (ten hoogste 200 tekens).",
  street: "Straat en huisnummer zijn te lang (ten hoogste 200 tekens).",
  city: "De plaats is te lang (ten hoogste 200 tekens).",
  iban: "Het IBAN klopt niet: controleer de landcode, de twee controlecijfers en het rekeningnummer.",
  bic: "De BIC klopt niet: 8 of 11 letters en cijfers (ISO 9362).",
  kvk_number: "Het KvK-nummer heeft 8 cijfers.",
  postal_code: "De postcode is geen Nederlandse postcode zoals 1234 AB.",
  phone: "Het telefoonnummer mag alleen cijfers, spaties, -, ( ) en een + vooraan bevatten.",
  email: "Het e-mailadres is ongeldig.",
};

/**
 * The Dutch message of an operation's refusal (an error with a lower-case snake-case `code`, as the
 * case system, core and webhook errors have), or undefined for any other error (a database or
 * network fault among them), which the caller rethrows.
 *
 * @example
 * domainErrorMessage(new CaseSystemError("task_not_open", "…")); // "Deze taak is al afgehandeld of afgewezen."
 */
export function domainErrorMessage(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  // Refusals carry the API's lower-case snake-case codes; a driver's or node's code (ECONNREFUSED,
  // 57P01, ERR_…) is a fault, not a refusal, and goes on to the error page.
  if (typeof code !== "string" || !/^[a-z][a-z0-9_]*$/.test(code)) return undefined;
  if (code === "invalid_letter_details") {
    const field = /^([a-z_]+):/.exec(error.message)?.[1] ?? "";
    return `Briefgegevens niet opgeslagen. ${LETTER_DETAIL_REFUSALS[field] ?? "Een van de velden is ongeldig."}`;
  }
  // An unknown code still gets a Dutch sentence; the code says the rest (issue 31, item 5).
  return DUTCH[code] ?? `De wijziging is geweigerd (${code}).`;
}

/**
 * The Dutch text of a refusal code the console knows, or undefined.
 *
 * @example
 * refusalText("no_invoices"); // "De zaak heeft geen facturen; er is geen brief gemaakt."
 */
export function refusalText(code: string): string | undefined {
  return DUTCH[code];
}
