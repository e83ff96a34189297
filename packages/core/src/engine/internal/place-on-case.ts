import type { CheckedAttachment } from "@incasso/pdf-guard";
import type { CaseCreditor, CaseOrderInput, OpenCase } from "../../case-system-port.js";
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

/** Oldest first, by opening time and then case number, so the choice never depends on the port's order. */
function oldestFirst(cases: readonly OpenCase[]): OpenCase[] {
  return [...cases].sort(
    (a, b) =>
      a.openedAt.getTime() - b.openedAt.getTime() ||
      (a.caseNumber < b.caseNumber ? -1 : a.caseNumber > b.caseNumber ? 1 : 0),
  );
}

/**
 * Puts a validated live order on a case through the CaseSystem port. The case step (find, open or
 * join) refuses the order with 502 when it fails; the steps after it (addresses and invoices, in
 * one `addItems` call when the case system has it, and files) turn a failure into a warning,
 * because the case then exists and the order stands (spec Warning: "non-blocking; the order is
 * processed regardless").
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
  const warnings: Warning[] = [];
  const customerNumbers = [
    ...new Set(order.debtors.map((d) => d.customer_number).filter((n): n is string => n !== null)),
  ];
  let open: OpenCase[] = [];
  if (customerNumbers.length > 0) {
    try {
      open = oldestFirst(
        await cs.findOpenCases({
          organisationId: principal.organisationId,
          creditorId: creditor.id,
          customerNumbers,
        }),
      );
    } catch (error) {
      throw upstream(engine, "findOpenCases", orderId, error);
    }
  }
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
  // A case this very order opened before a crash is its own, not an existing one to merge into.
  const own = open.find((c) => c.openedByOrderId === orderId);
  let caseNumber: string;
  let caseNew: boolean;
  try {
    const target = own === undefined ? open[0] : undefined;
    if (target === undefined) {
      caseNumber = (await cs.openCase(caseInput)).caseNumber;
      caseNew = true;
    } else {
      // Spec: "A follow-up invoice with the same customer_number for a debtor who already has an
      // open case is added to that open case" (WIK: one reminder and one fee for all claims, art.
      // 6:96 lid 7 BW). With several, the oldest (decision orders-engine-multiple-open-cases).
      caseNumber = (await cs.joinCase({ ...caseInput, caseNumber: target.caseNumber })).caseNumber;
      caseNew = false;
      warnings.push(attachedWarning(caseNumber));
      if (open.length > 1) {
        warnings.push(
          multipleOpenCasesWarning(
            caseNumber,
            open.slice(1).map((c) => c.caseNumber),
          ),
        );
      }
    }
  } catch (error) {
    throw upstream(engine, own === undefined && open.length > 0 ? "joinCase" : "openCase", orderId, error);
  }

  // The steps after the case are independent of each other, so they run at once (a host's case
  // system answers them in parallel); their warnings keep the order debtors, invoices, files.
  const partial = async (
    step: string,
    run: () => Promise<void>,
    warnings: () => Warning[],
  ): Promise<Warning[]> => {
    try {
      await run();
      return [];
    } catch (error) {
      engine.logger.warn("case system step failed; order kept with a warning", {
        step,
        orderId,
        caseNumber,
        error: error instanceof Error ? error.message : String(error),
      });
      return warnings();
    }
  };
  const addressWarning = (debtor: NormalisedDebtor) => debtorAddressFailedWarning(debtorDisplayName(debtor));
  const invoiceWarning = (invoice: NormalisedInvoice) => claimAttachFailedWarning(invoice.invoice_number);
  const steps: Promise<Warning[]>[] = [];
  if (cs.addItems !== undefined) {
    // One call for every address and invoice (decision case-system-port-batched-items). Its
    // failure cannot say which items were recorded, so each of them gets its warning.
    const addItems = cs.addItems.bind(cs);
    steps.push(
      partial(
        "addItems",
        () =>
          addItems({
            orderId,
            caseNumber,
            addresses: order.debtors.map((debtor, debtorIndex) => ({ debtorIndex, address: debtor.address })),
            invoices: order.invoices.map((invoice, invoiceIndex) => ({ invoiceIndex, invoice })),
          }),
        () => [...order.debtors.map(addressWarning), ...order.invoices.map(invoiceWarning)],
      ),
    );
  } else {
    for (const [debtorIndex, debtor] of order.debtors.entries()) {
      steps.push(
        partial(
          "setDebtorAddress",
          () => cs.setDebtorAddress({ orderId, caseNumber, debtorIndex, address: debtor.address }),
          () => [addressWarning(debtor)],
        ),
      );
    }
    for (const [invoiceIndex, invoice] of order.invoices.entries()) {
      steps.push(
        partial(
          "addInvoice",
          () => cs.addInvoice({ orderId, caseNumber, invoiceIndex, invoice }),
          () => [invoiceWarning(invoice)],
        ),
      );
    }
  }
  for (const attachment of input.attachments) {
    steps.push(
      partial(
        "storeAttachment",
        () =>
          cs.storeAttachment({
            orderId,
            caseNumber,
            attachmentIndex: attachment.index,
            filename: attachment.filename,
            documentType: attachment.document_type,
            bytes: attachment.bytes,
          }),
        () => [attachmentUploadFailedWarning(attachment.filename)],
      ),
    );
  }
  for (const failed of await Promise.all(steps)) warnings.push(...failed);
  return { caseNumber, caseNew, warnings };
}
