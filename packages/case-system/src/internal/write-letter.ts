import { randomBytes } from "node:crypto";
import type { Executor } from "@incasso/store-sql";
import { amsterdamDate } from "@incasso/wik";
import type { CaseChange } from "../case-change.js";
import { paidBefore } from "../case-collection-costs.js";
import { CaseSystemError } from "../errors.js";
import { renderWikLetterPdf } from "../render-wik-letter.js";
import { composeWikLetter, type WikLetterSender } from "../wik-letter.js";
import { insertLetter, type LetterRow, letterOfOrder, readLetter } from "./handler-queries.js";
import { type LetterFacts, selectLetterFacts } from "./letter-facts.js";
import { deleteLetterJob } from "./letter-job-queries.js";

/**
 * The built-in case system's transaction for a change: runs `fn` and writes the webhook event of
 * each change it returns (and calls the host's listener) in the same transaction.
 */
export type LetterWrite = <T>(
  fn: (tx: Executor) => Promise<{ result: T; changes: CaseChange[] }>,
) => Promise<T>;

/** What writing a letter needs of the case system that writes it. */
export interface LetterDeps {
  db: Executor;
  write: LetterWrite;
}

/** The sender the letter prints: the letter details, named after the creditor when they name no one. */
function senderOf(facts: LetterFacts): WikLetterSender | null {
  const d = facts.letterDetails;
  if (d === null || d.iban === null) return null;
  return {
    name: d.sender_name ?? facts.creditorName,
    street: d.street,
    postalCode: d.postal_code,
    city: d.city,
    iban: d.iban,
    bic: d.bic,
    kvkNumber: d.kvk_number,
    phone: d.phone,
    email: d.email,
  };
}

function notFound(caseNumber: string): CaseSystemError {
  return new CaseSystemError("case_not_found", `No case ${caseNumber}.`);
}

function notOnCase(orderId: string, caseNumber: string): CaseSystemError {
  return new CaseSystemError("order_not_on_case", `Order ${orderId} is not on case ${caseNumber}.`);
}

/**
 * Composes, renders and stores the letter, recorded as sent with its `letter_sent` change (which
 * sends `correspondence.sent`) in one transaction; an order's letter also deletes the order's
 * letter job there. Null when the order had its letter already (the unique order id on
 * case_letters: a second runner or a handler was first).
 */
async function storeNewLetter(
  deps: LetterDeps,
  facts: LetterFacts,
  input: { orderId?: string; at: Date },
): Promise<(LetterRow & { bytes: Uint8Array }) | null> {
  const { at, orderId } = input;
  const letterDate = amsterdamDate(at);
  const letter = composeWikLetter({
    letterDate,
    caseNumber: facts.caseNumber,
    reference: facts.order === null ? facts.caseReference : facts.order.reference,
    creditorName: facts.creditorName,
    debtors: facts.debtors,
    invoices: facts.invoices,
    // Payments received before the letter lower the principal its costs are taken over (decision
    // case-system-collection-costs); later ones do not.
    paidCents: paidBefore(facts.payments, letterDate),
    sender: senderOf(facts),
  });
  const bytes = await renderWikLetterPdf(letter, { date: at });
  const row: LetterRow = {
    id: `let_${randomBytes(8).toString("hex")}`,
    caseNumber: facts.caseNumber,
    orderId: orderId ?? null,
    kind: "wik_letter",
    filename: `aanmaning-${facts.caseNumber}-${letterDate}.pdf`,
    letterDate,
    principalCents: letter.outstandingCents,
    collectionCostsCents: letter.collectionCostsCents,
    sizeBytes: bytes.byteLength,
    sentAt: at,
  };
  // The event names the order the letter is for, or for a case's letter the order that opened
  // the case (decision case-system-webhook-events).
  const owner =
    facts.order === null
      ? { orderId: facts.openedByOrderId, reference: facts.caseReference }
      : { orderId: facts.order.orderId, reference: facts.order.reference };
  const added = await deps.write(async (tx) => {
    const inserted = await insertLetter(tx, { ...row, content: bytes, claimsThrough: facts.claimsThrough });
    if (orderId !== undefined) await deleteLetterJob(tx, orderId);
    if (!inserted) return { result: false, changes: [] };
    const change: CaseChange = {
      caseNumber: facts.caseNumber,
      organisationId: facts.organisationId,
      ...owner,
      at,
      kind: "letter_sent",
      letterId: row.id,
      letterKind: "wik_letter",
    };
    return { result: true, changes: [change] };
  });
  return added ? { ...row, bytes } : null;
}

async function storedLetterOf(db: Executor, orderId: string): Promise<LetterRow & { bytes: Uint8Array }> {
  const stored = await letterOfOrder(db, orderId);
  const existing = stored && (await readLetter(db, stored.caseNumber, stored.id));
  if (!existing) throw new CaseSystemError("letter_not_found", `No letter for order ${orderId}.`);
  return existing;
}

/**
 * `sendLetter` of the built-in case system: the 14-day letter of the case, or with `orderId` that
 * order's letter, made once (a repeat returns the stored one without rendering again).
 *
 * @throws {CaseSystemError} `case_not_found`, `order_not_on_case`, `no_invoices`, `nothing_outstanding`,
 * `letter_details_missing`.
 */
export async function sendCaseLetter(
  deps: LetterDeps,
  input: { caseNumber: string; orderId?: string; at: Date },
): Promise<LetterRow & { bytes: Uint8Array }> {
  const facts = await selectLetterFacts(deps.db, input);
  if (facts === undefined) throw notFound(input.caseNumber);
  const orderId = input.orderId;
  if (orderId === undefined) {
    const made = await storeNewLetter(deps, facts, { at: input.at });
    if (made === null) throw new Error("A letter without an order cannot conflict.");
    return made;
  }
  if (facts.order === null) throw notOnCase(orderId, input.caseNumber);
  if (facts.existingLetterId !== null) return storedLetterOf(deps.db, orderId);
  return (await storeNewLetter(deps, facts, { orderId, at: input.at })) ?? storedLetterOf(deps.db, orderId);
}

/**
 * The work of a letter job: the order's letter when it has none yet (and the job deleted with
 * it), else only the job deleted. `made` is false when the letter existed already.
 *
 * @throws {CaseSystemError} `case_not_found`, `order_not_on_case`, `no_invoices`, `nothing_outstanding`,
 * `letter_details_missing`:
 * the job cannot succeed as the case stands.
 */
export async function makeOrderLetter(
  deps: LetterDeps,
  input: { caseNumber: string; orderId: string; at: Date },
): Promise<{ letterId: string; made: boolean }> {
  const facts = await selectLetterFacts(deps.db, input);
  if (facts === undefined) throw notFound(input.caseNumber);
  if (facts.order === null) throw notOnCase(input.orderId, input.caseNumber);
  if (facts.existingLetterId !== null) {
    await deleteLetterJob(deps.db, input.orderId);
    return { letterId: facts.existingLetterId, made: false };
  }
  const made = await storeNewLetter(deps, facts, input);
  if (made !== null) return { letterId: made.id, made: true };
  const existing = await letterOfOrder(deps.db, input.orderId);
  if (existing === undefined)
    throw new CaseSystemError("letter_not_found", `No letter for order ${input.orderId}.`);
  return { letterId: existing.id, made: false };
}
