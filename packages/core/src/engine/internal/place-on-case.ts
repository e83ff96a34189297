import type { CheckedAttachment } from "@incasso/pdf-guard";
import type { CaseCreditor, CaseOrderInput, CasePlacement } from "../../case-system-port.js";
import { debtorDisplayName } from "../../orders/display-name.js";
import type { NormalisedDebtor, NormalisedInvoice, NormalisedOrder } from "../../orders/normalised-order.js";
import type { Warning } from "../../orders/warnings.js";
import type { Principal } from "../../principal.js";
import type { OrderEngine } from "../order-engine.js";
import { OrderEngineError } from "../order-engine-error.js";
import { metadataNote } from "./metadata-note.js";
import {
  attachedWarning,
  attachmentUploadFailedWarning,
  claimAttachFailedWarning,
  debtorAddressFailedWarning,
  multipleOpenCasesWarning,
} from "./warning-messages.js";

export interface Placement {
  caseNumber: string;
  caseNew: boolean;
  warnings: Warning[];
}

function upstream(engine: OrderEngine, step: string, orderId: string, error: unknown): OrderEngineError {
  engine.logger.warn("case system failed; order refused with 502", {
    step,
    orderId,
    error: error instanceof Error ? error.message : String(error),
  });
  return new OrderEngineError(
    "upstream_error",
    "The case system could not process the order; nothing was stored. Retry later with the same Idempotency-Key.",
    { cause: error },
  );
}

type PlaceInput = Parameters<typeof placeOnCase>[1];

const addressWarning = (debtor: NormalisedDebtor) => debtorAddressFailedWarning(debtorDisplayName(debtor));
const invoiceWarning = (invoice: NormalisedInvoice) => claimAttachFailedWarning(invoice.invoice_number);

/** The warnings of an order that joined `caseNumber` (spec Warning `attached_to_existing_case`). */
function joinedWarnings(caseNumber: string, others: readonly string[]): Warning[] {
  return others.length > 0
    ? [attachedWarning(caseNumber), multipleOpenCasesWarning(caseNumber, [...others])]
    : [attachedWarning(caseNumber)];
}

/**
 * The warnings of the items the case system reports as not recorded (`failedItems`), debtors
 * first, each in the order's order, logged once; the order stands (spec Warning: "the order is
 * processed regardless").
 */
function failedItemWarnings(engine: OrderEngine, input: PlaceInput, placed: CasePlacement): Warning[] {
  const failed = placed.failedItems;
  if (failed === undefined) return [];
  const debtors = new Set(failed.debtorIndexes);
  const invoices = new Set(failed.invoiceIndexes);
  const warnings = [
    ...input.order.debtors.filter((_, i) => debtors.has(i)).map(addressWarning),
    ...input.order.invoices.filter((_, i) => invoices.has(i)).map(invoiceWarning),
  ];
  if (warnings.length > 0) {
    engine.logger.warn("case system could not record every item; order kept with a warning", {
      step: "placeOnCase",
      orderId: input.orderId,
      caseNumber: placed.caseNumber,
      debtorIndexes: failed.debtorIndexes,
      invoiceIndexes: failed.invoiceIndexes,
    });
  }
  return warnings;
}

/**
 * Stores one file on the case; its failure is logged and becomes its warning, because the case
 * then exists and the order stands (spec Warning: "the order is processed regardless").
 */
async function storeFile(
  engine: OrderEngine,
  where: { orderId: string; caseNumber: string },
  attachment: CheckedAttachment,
): Promise<Warning[]> {
  try {
    await engine.caseSystem.storeAttachment({
      ...where,
      attachmentIndex: attachment.index,
      filename: attachment.filename,
      documentType: attachment.document_type,
      bytes: attachment.bytes,
    });
    return [];
  } catch (error) {
    engine.logger.warn("case system step failed; order kept with a warning", {
      step: "storeAttachment",
      ...where,
      error: error instanceof Error ? error.message : String(error),
    });
    return [attachmentUploadFailedWarning(attachment.filename)];
  }
}

/**
 * Puts a validated live order on a case through the CaseSystem port: one `placeOnCase` call
 * (decision case-system-port-one-call-placement), then one `storeAttachment` per file. Placing
 * the order refuses it with 502 when it fails; the items it reports as not recorded and a failed
 * file become warnings, because the case then exists and the order stands (spec Warning:
 * "non-blocking; the order is processed regardless").
 */
export async function placeOnCase(
  engine: OrderEngine,
  input: {
    principal: Principal;
    orderId: string;
    order: NormalisedOrder;
    creditor: CaseCreditor;
    title: string;
    attachments: readonly CheckedAttachment[];
    now: Date;
  },
): Promise<Placement> {
  const { principal, orderId, order, creditor } = input;
  const cs = engine.caseSystem;
  const caseInput: CaseOrderInput = {
    orderId,
    organisationId: principal.organisationId,
    creditor,
    type: order.type,
    reference: order.reference,
    title: input.title,
    description: order.description,
    udfFields: order.case_udf_fields,
    debtors: order.debtors.map(({ address: _address, ...d }) => ({ ...d, name: debtorDisplayName(d) })),
    note: metadataNote(orderId, order.metadata),
    at: input.now,
  };
  const items = {
    addresses: order.debtors.map((debtor, debtorIndex) => ({ debtorIndex, address: debtor.address })),
    invoices: order.invoices.map((invoice, invoiceIndex) => ({ invoiceIndex, invoice })),
  };
  let placed: CasePlacement;
  try {
    // Called on the case system, so a host's class keeps its `this`.
    placed = await cs.placeOnCase({ ...caseInput, ...items });
  } catch (error) {
    throw upstream(engine, "placeOnCase", orderId, error);
  }
  const { caseNumber, caseNew } = placed;
  // Warnings in the order of decision orders-engine-warnings: placement, then debtors, invoices, files.
  const warnings = caseNew ? [] : joinedWarnings(caseNumber, placed.otherOpenCases);
  warnings.push(...failedItemWarnings(engine, input, placed));
  const files = await Promise.all(
    input.attachments.map((attachment) => storeFile(engine, { orderId, caseNumber }, attachment)),
  );
  for (const failed of files) warnings.push(...failed);
  return { caseNumber, caseNew, warnings };
}
