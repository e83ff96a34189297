import { refusalText } from "./domain-error.js";

// The Dutch words for the codes the console shows (issue 31, item 5): a handler reads Dutch, the
// code itself stays in the API, the CLI and the logs.

const TASK_ACTIONS: Record<string, string> = {
  payments: "Betaling gemeld",
  hold: "Aanhouden",
  withdraw: "Intrekken",
};

/**
 * A task's action (the control request of spec section Control requests that made it) in Dutch.
 *
 * @example
 * taskActionLabel("payments"); // "Betaling gemeld"
 */
export function taskActionLabel(action: string): string {
  return TASK_ACTIONS[action] ?? action;
}

const LETTER_JOB_STATES: Record<string, string> = {
  pending: "wacht",
  running: "wordt gemaakt",
  failed: "mislukt",
};

/**
 * A letter job's state in Dutch.
 *
 * @example
 * letterJobStateLabel("failed"); // "mislukt"
 */
export function letterJobStateLabel(state: string): string {
  return LETTER_JOB_STATES[state] ?? state;
}

/**
 * Why a letter job's last attempt failed, in Dutch. The runner stores a refusal of the case system
 * as `code: message` (letter-runner.ts); its code is translated like every refusal in the console.
 * Anything else is a fault (the database, the renderer), named as such with its text.
 *
 * @example
 * letterJobErrorText("letter_details_missing: No IBAN."); // "De organisatie heeft geen IBAN …"
 */
export function letterJobErrorText(error: string | null): string {
  if (error === null) return "";
  if (error === "the letter runner stopped during the last attempt")
    return "De briefmaker stopte tijdens de laatste poging.";
  const code = /^([a-z_]+): /.exec(error)?.[1] ?? "";
  if (code === "letter_details_missing")
    return "De organisatie heeft geen IBAN in haar briefgegevens; de brief wordt gemaakt zodra het IBAN is ingesteld.";
  const dutch = refusalText(code);
  if (dutch !== undefined) return dutch;
  return `Technische fout: ${error}`;
}

const WEBHOOK_FAILURES: Record<string, string> = {
  http_status: "Het eindpunt weigerde de gebeurtenis",
  redirect_not_followed: "Het eindpunt stuurde door; doorsturen wordt niet gevolgd",
  timeout: "Geen volledig antwoord binnen de tijd",
  connection_failed: "Geen verbinding met het eindpunt",
  private_target: "Het adres ligt in een privénetwerk; daar wordt niet afgeleverd",
  dns_failed: "De hostnaam van het eindpunt werd niet gevonden",
  invalid_url: "De URL van het eindpunt is ongeldig",
  no_endpoint: "De organisatie heeft geen eindpunt",
  secret_unavailable: "Het geheim van het eindpunt kon niet worden gelezen",
};

/**
 * A failed delivery attempt's error (`code: detail`, deliver-webhook.ts) split into a Dutch reason
 * and what the receiver answered: for a refusal (`http_status: HTTP 500: body`) the start of the
 * body it sent, which the attempt keeps (at most 200 characters, control characters removed).
 *
 * @example
 * webhookFailure("http_status: HTTP 500: boom"); // { reason: "Het eindpunt weigerde de gebeurtenis", answer: "boom", detail: "HTTP 500: boom" }
 */
export function webhookFailure(error: string | null): { reason: string; answer: string; detail: string } {
  if (error === null) return { reason: "", answer: "", detail: "" };
  const match = /^([a-z_]+): (.*)$/s.exec(error);
  const code = match?.[1] ?? "";
  const detail = match?.[2] ?? error;
  const body = code === "http_status" ? (/^HTTP \d{3}: (.*)$/s.exec(detail)?.[1] ?? "") : "";
  return { reason: WEBHOOK_FAILURES[code] ?? "Afleveren mislukt", answer: body, detail };
}
