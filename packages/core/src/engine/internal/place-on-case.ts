import type { CheckedAttachment } from "@incasso/pdf-guard";
import type {
  CaseCreditor,
  CaseItemsInput,
  CaseOrderInput,
  CaseSystem,
  OpenCase,
} from "../../case-system-port.js";
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

/** The case step's outcome and the item steps still running, each with its warnings. */
interface CaseStep {
  caseNumber: string;
  caseNew: boolean;
  warnings: Warning[];
  items: Promise<Warning[]>[];
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
 * Runs a step after the case exists: its failure is logged and becomes its warnings, because the
 * case then exists and the order stands (spec Warning: "the order is processed regardless").
 */
async function partial(
  engine: OrderEngine,
  where: { step: string; orderId: string; caseNumber: string },
  run: () => Promise<void>,
  warnings: () => Warning[],
): Promise<Warning[]> {
  try {
    await run();
    return [];
  } catch (error) {
    engine.logger.warn("case system step failed; order kept with a warning", {
      ...where,
      error: error instanceof Error ? error.message : String(error),
    });
    return warnings();
  }
}

/**
 * One `placeOnCase` call finds, opens or joins the case and records the items (decision
 * case-system-port-one-call-placement). Its throw is 502 with nothing placed; items it reports as
 * not recorded become their warnings.
 */
async function placeInOneCall(
  engine: OrderEngine,
  place: NonNullable<CaseSystem["placeOnCase"]>,
  input: PlaceInput,
  caseInput: CaseOrderInput,
  items: Pick<CaseItemsInput, "addresses" | "invoices">,
): Promise<CaseStep> {
  let placed: Awaited<ReturnType<typeof place>>;
  try {
    placed = await place({ ...caseInput, ...items });
  } catch (error) {
    throw upstream(engine, "placeOnCase", input.orderId, error);
  }
  const { caseNumber, caseNew } = placed;
  const warnings = caseNew ? [] : joinedWarnings(caseNumber, placed.otherOpenCases);
  const failed = placed.failedItems;
  if (failed !== undefined) {
    const debtors = new Set(failed.debtorIndexes);
    const invoices = new Set(failed.invoiceIndexes);
    const debtorWarnings = input.order.debtors.filter((_, i) => debtors.has(i)).map(addressWarning);
    const invoiceWarnings = input.order.invoices.filter((_, i) => invoices.has(i)).map(invoiceWarning);
    if (debtorWarnings.length + invoiceWarnings.length > 0) {
      engine.logger.warn("case system could not record every item; order kept with a warning", {
        step: "placeOnCase",
        orderId: input.orderId,
        caseNumber,
        debtorIndexes: failed.debtorIndexes,
        invoiceIndexes: failed.invoiceIndexes,
      });
    }
    return {
      caseNumber,
      caseNew,
      warnings,
      items: [Promise.resolve([...debtorWarnings, ...invoiceWarnings])],
    };
  }
  return { caseNumber, caseNew, warnings, items: [] };
}

/**
 * The separate calls, for a case system without `placeOnCase`: `findOpenCases`, then `openCase`
 * or `joinCase` (each failure 502), then the items in one `addItems` call or one call per item
 * (each failure a warning). Two orders for one customer number at the same moment can both find
 * no open case here and open two; only `placeOnCase` closes that gap.
 */
async function placeStepByStep(
  engine: OrderEngine,
  input: PlaceInput,
  caseInput: CaseOrderInput,
  items: Pick<CaseItemsInput, "addresses" | "invoices">,
): Promise<CaseStep> {
  const { principal, orderId, order, creditor } = input;
  const cs = engine.caseSystem;
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
  // A case this very order opened before a crash is its own, not an existing one to merge into.
  const own = open.find((c) => c.openedByOrderId === orderId);
  let caseNumber: string;
  let caseNew: boolean;
  const warnings: Warning[] = [];
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
      warnings.push(
        ...joinedWarnings(
          caseNumber,
          open.slice(1).map((c) => c.caseNumber),
        ),
      );
    }
  } catch (error) {
    throw upstream(engine, own === undefined && open.length > 0 ? "joinCase" : "openCase", orderId, error);
  }

  // The item steps are independent of each other, so they run at once (a host's case system
  // answers them in parallel); their warnings keep the order debtors, invoices.
  const where = (step: string) => ({ step, orderId, caseNumber });
  const steps: Promise<Warning[]>[] = [];
  if (cs.addItems !== undefined) {
    // One call for every address and invoice (decision case-system-port-batched-items). Its
    // failure cannot say which items were recorded, so each of them gets its warning.
    const addItems = cs.addItems.bind(cs);
    steps.push(
      partial(
        engine,
        where("addItems"),
        () => addItems({ orderId, caseNumber, ...items }),
        () => [...order.debtors.map(addressWarning), ...order.invoices.map(invoiceWarning)],
      ),
    );
  } else {
    for (const [debtorIndex, debtor] of order.debtors.entries()) {
      steps.push(
        partial(
          engine,
          where("setDebtorAddress"),
          () => cs.setDebtorAddress({ orderId, caseNumber, debtorIndex, address: debtor.address }),
          () => [addressWarning(debtor)],
        ),
      );
    }
    for (const [invoiceIndex, invoice] of order.invoices.entries()) {
      steps.push(
        partial(
          engine,
          where("addInvoice"),
          () => cs.addInvoice({ orderId, caseNumber, invoiceIndex, invoice }),
          () => [invoiceWarning(invoice)],
        ),
      );
    }
  }
  return { caseNumber, caseNew, warnings, items: steps };
}

/**
 * Puts a validated live order on a case through the CaseSystem port: with one `placeOnCase` call
 * when the case system has it (decision case-system-port-one-call-placement), otherwise with the
 * separate calls. Placing the order (find, open or join) refuses it with 502 when it fails; the
 * steps after it (addresses and invoices when they are separate calls, and files) turn a failure
 * into a warning, because the case then exists and the order stands (spec Warning:
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
  const step =
    cs.placeOnCase === undefined
      ? await placeStepByStep(engine, input, caseInput, items)
      : await placeInOneCall(engine, cs.placeOnCase.bind(cs), input, caseInput, items);
  const { caseNumber } = step;
  const steps = [...step.items];
  for (const attachment of input.attachments) {
    steps.push(
      partial(
        engine,
        { step: "storeAttachment", orderId, caseNumber },
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
  // Warnings in the order of decision orders-engine-warnings: placement, then debtors, invoices, files.
  const warnings = [...step.warnings];
  for (const failed of await Promise.all(steps)) warnings.push(...failed);
  return { caseNumber, caseNew: step.caseNew, warnings };
}
