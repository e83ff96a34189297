// The refusals of the operations the console calls, in Dutch; an unknown code shows the
// operation's own message.
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
  operator_not_found: "Deze operator bestaat niet.",
  invalid_operator: "Een operator heeft een naam van 1 tot 200 tekens en de rol behandelaar of beheerder.",
  webhook_event_not_found: "Deze gebeurtenis bestaat niet.",
  invalid_webhook_url: "Deze URL kan geen webhook-eindpunt zijn (https vereist, geen privé-adres).",
  invalid_key_settings: "Deze instellingen van de sleutel zijn ongeldig.",
  letter_details_missing: "De organisatie heeft geen IBAN in haar briefgegevens; er is geen brief gemaakt.",
};

/**
 * The Dutch message of an operation's refusal (an error with a string `code`, as the case system,
 * core and webhook errors have), or undefined for any other error, which the caller rethrows.
 *
 * @example
 * domainErrorMessage(new CaseSystemError("task_not_open", "…")); // "Deze taak is al afgehandeld of afgewezen."
 */
export function domainErrorMessage(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string") return undefined;
  // The field and the reason, as the case system names them (iban: not a valid IBAN: …).
  if (code === "invalid_letter_details") return `Briefgegevens ongeldig: ${error.message}`;
  return DUTCH[code] ?? error.message;
}
