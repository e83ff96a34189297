import type {
  NormalisedAddress,
  NormalisedDebtor,
  NormalisedInvoice,
  UdfValue,
} from "./orders/normalised-order.js";

/**
 * The creditor (principal) a case is kept for: a managed creditor of the organisation, or the
 * organisation's own principal (`id` null), which is the creditor when an order names none (spec
 * CreateOrder.creditor: "When omitted, the key's own principal is the creditor").
 *
 * @example
 * const c: CaseCreditor = { id: null, name: "Acme BV" };
 */
export interface CaseCreditor {
  id: string | null;
  name: string;
}

/**
 * The scope of the merge rule for an order ({@link openCaseQuery}): open cases of this
 * organisation and creditor with a debtor carrying one of these customer numbers (spec: "A
 * follow-up invoice with the same customer_number for a debtor who already has an open case is
 * added to that open case"). What a host's lookup (`findOpenCases` of `placeOnCaseStepwise`,
 * @incasso/case-system-conformance/stepwise) is asked for.
 *
 * @example
 * const q: OpenCaseQuery = { organisationId: "org_0123456789abcdef", creditorId: null, customerNumbers: ["K-1001"] };
 */
export interface OpenCaseQuery {
  organisationId: string;
  creditorId: string | null;
  customerNumbers: string[];
}

/**
 * An open case in the scope of an order, as {@link chooseOpenCase} ranks it (a host's lookup
 * `findOpenCases` for `placeOnCaseStepwise` answers these).
 *
 * @example
 * const c: OpenCase = { caseNumber: "2026-000001", openedAt: new Date("2026-11-01T09:00:00Z"), openedByOrderId: "ord_0123456789abcdef" };
 */
export interface OpenCase {
  caseNumber: string;
  openedAt: Date;
  /** The order whose submission opened the case; lets the engine recognise its own retry. */
  openedByOrderId: string;
}

/**
 * A debtor as the case step receives it: every field of the order's debtor except the address,
 * which the placement records separately (`addresses` of {@link CasePlacementInput}; a host that
 * could not record it reports it, and it becomes the warning `debtor_address_failed`, spec Warning).
 *
 * @example
 * const d: CaseDebtor = { type: "business", company_name: "Voorbeeld B.V.", first_name: null, middle_name: null,
 *   last_name: null, customer_number: "K-1", email: null, phone: null, name: "Voorbeeld B.V." };
 */
export type CaseDebtor = Omit<NormalisedDebtor, "address"> & {
  /** Display name (company name, or first, middle and last name). */
  name: string;
};

/**
 * The order's part of a case: what a placement opens a case with or adds to an open one. Calls
 * with the same `orderId` must have the effect of one (the engine retries with the same id after a
 * crash; decision orders-engine-order-ids).
 *
 * @example
 * const input: CaseOrderInput = { orderId: "ord_0123456789abcdef", organisationId: "org_0123456789abcdef",
 *   creditor: { id: null, name: "Acme BV" }, type: "incasso", reference: "R-1", title: "Overeenkomst van opdracht voor …",
 *   description: null, udfFields: {}, debtors: [], note: null, at: new Date() };
 */
export interface CaseOrderInput {
  orderId: string;
  organisationId: string;
  creditor: CaseCreditor;
  type: "pre-incasso" | "incasso";
  /** The client's reference, stored on the case (spec CreateOrder.reference). */
  reference: string | null;
  title: string;
  description: string | null;
  /** Only the account's defined custom fields, typed. */
  udfFields: Record<string, UdfValue>;
  debtors: CaseDebtor[];
  /** The order's metadata as a note for the handler (spec CreateOrder.metadata), or null when none was sent. */
  note: string | null;
  at: Date;
}

/**
 * A case control task: a hold, withdraw or payment report placed on the case for a handler (spec
 * States and transitions: "a task with instructions is placed on the case for a handler").
 * Idempotent on `taskId`.
 *
 * @example
 * const t: CaseTaskInput = { taskId: "act_0123456789abcdef", orderId: "ord_0123456789abcdef", organisationId: "org_0123456789abcdef",
 *   caseNumber: "2026-000001", action: "hold", instructions: "Pauzeer de incasso.", reason: null, amountCents: null, paymentDate: null, at: new Date() };
 */
export interface CaseTaskInput {
  taskId: string;
  orderId: string;
  organisationId: string;
  caseNumber: string;
  action: "hold" | "withdraw" | "payments";
  /** Dutch instructions for the handler. */
  instructions: string;
  reason: string | null;
  amountCents: number | null;
  paymentDate: string | null;
  at: Date;
}

/**
 * What {@link CaseSystem.orderPlaced} is told: a live order is on its case and stored.
 *
 * @example
 * const placed: OrderPlacedInput = { orderId: "ord_0123456789abcdef", organisationId: "org_0123456789abcdef",
 *   caseNumber: "2026-000001", caseNew: true, type: "pre-incasso", at: new Date() };
 */
export interface OrderPlacedInput {
  orderId: string;
  organisationId: string;
  caseNumber: string;
  /** False when the order was added to an open case (spec Order.case.new). */
  caseNew: boolean;
  type: "pre-incasso" | "incasso";
  at: Date;
}

/**
 * The items of an order on its case: the addresses of the order's debtors and its invoices, each
 * named by its 0-based position in the order (as `failedItems` of {@link CasePlacement} names
 * them).
 *
 * @example
 * const items: CaseItemsInput = { orderId: "ord_0123456789abcdef", caseNumber: "2026-000001",
 *   addresses: [{ debtorIndex: 0, address: { street: "Teststraat", house_number: "1", house_number_suffix: null,
 *     postal_code: "9999 ZZ", city: "Testdorp", country: "NL" } }],
 *   invoices: [{ invoiceIndex: 0, invoice: { invoice_number: "F-1", invoice_date: "2026-10-01", due_date: "2026-10-15",
 *     payment_term_days: 14, amount_cents: 125000, description: null } }] };
 */
export interface CaseItemsInput {
  orderId: string;
  caseNumber: string;
  addresses: { debtorIndex: number; address: NormalisedAddress }[];
  invoices: { invoiceIndex: number; invoice: NormalisedInvoice }[];
}

/**
 * What {@link CaseSystem.placeOnCase} places in one call: the order's part of a case
 * ({@link CaseOrderInput}) with the addresses of its debtors and its invoices
 * ({@link CaseItemsInput}).
 *
 * @example
 * const input: CasePlacementInput = { orderId: "ord_0123456789abcdef", organisationId: "org_0123456789abcdef",
 *   creditor: { id: null, name: "Acme BV" }, type: "incasso", reference: "R-1", title: "Overeenkomst van opdracht voor …",
 *   description: null, udfFields: {}, debtors: [], note: null, at: new Date(), addresses: [], invoices: [] };
 */
export interface CasePlacementInput extends CaseOrderInput {
  addresses: CaseItemsInput["addresses"];
  invoices: CaseItemsInput["invoices"];
}

/**
 * Where {@link CaseSystem.placeOnCase} put the order.
 *
 * @example
 * const placed: CasePlacement = { caseNumber: "2026-000001", caseNew: false, otherOpenCases: ["2026-000007"] };
 */
export interface CasePlacement {
  caseNumber: string;
  /**
   * True when the order opened the case (also when a repeat of the call finds the case the order
   * opened before); false when it joined an open case (spec Order.case.new).
   */
  caseNew: boolean;
  /**
   * When the order joined a case: the other open cases found for its customer numbers, oldest
   * first, for the warning `multiple_open_cases`; empty otherwise.
   */
  otherOpenCases: string[];
  /**
   * Optional: the debtors (by `debtorIndex`) whose address and the invoices (by `invoiceIndex`)
   * the case system could not record although the order is on the case; each becomes its warning
   * `debtor_address_failed` or `claim_attach_failed`. Left out when everything was recorded.
   */
  failedItems?: { debtorIndexes: number[]; invoiceIndexes: number[] };
}

/**
 * What {@link CaseSystem.withdrawPlacement} undoes: the placement of an order whose order row was
 * never stored.
 *
 * @example
 * const input: PlacementWithdrawalInput = { orderId: "ord_0123456789abcdef", organisationId: "org_0123456789abcdef" };
 */
export interface PlacementWithdrawalInput {
  orderId: string;
  organisationId: string;
}

/**
 * The live state of a case (spec OrderStatus.case).
 *
 * @example
 * const s: CaseState = { caseNumber: "2026-000001", status: "In behandeling", open: true, balanceDueCents: 145000 };
 */
export interface CaseState {
  caseNumber: string;
  /** Current status, such as Nieuw, In behandeling, Gesloten. */
  status: string;
  open: boolean;
  /**
   * Outstanding balance including collection costs and interest; only once the case is in
   * treatment (spec OrderStatus.case.balance_due_cents: "omitted on a new case").
   */
  balanceDueCents?: number;
}

/**
 * The case system port (architecture: Ports). The order engine calls it to put a live order on a
 * case; a host implements it to connect its own case system, `@incasso/case-system` is the
 * built-in implementation on the same database.
 *
 * Contract:
 * - Every write is idempotent on the order id (with the index of the item), so the engine may
 *   repeat a call after a crash without a second case, invoice or file appearing.
 * - One placement call, `placeOnCase` (decision case-system-port-one-call-placement): a throw
 *   refuses the order with 502 `upstream_error` and nothing stored (spec Errors); the items it
 *   reports in `failedItems` become `debtor_address_failed` or `claim_attach_failed`. A throw
 *   from `storeAttachment` becomes `attachment_upload_failed`: the order stands.
 * - A throw from `addTask` refuses the control request with 502; from `caseState`, GET
 *   /orders/{orderId} answers 502.
 * - `withdrawPlacement` undoes a placement whose order was never stored (the database failed
 *   between the two steps; decision orders-engine-placement-intents).
 *
 * @example
 * const caseSystem: CaseSystem = createBuiltInCaseSystem({ store }); // @incasso/case-system
 * const placed = await caseSystem.placeOnCase(input); // { caseNumber, caseNew, otherOpenCases }
 */
export interface CaseSystem {
  /**
   * Places a live order on a case in one call: finds the open cases of the order's organisation
   * and creditor with a debtor carrying one of the order's customer numbers, joins the oldest or
   * opens a new case when there is none (the merge rule, {@link chooseOpenCase}; decision
   * orders-engine-multiple-open-cases), and records the debtors' addresses and the invoices.
   *
   * - Concurrency: two calls for the same organisation, creditor and customer number should not
   *   both open a case; the second joins the first's (spec: a follow-up invoice "is added to that
   *   open case"), also when they come from several API processes at once. The built-in case
   *   system guarantees it; a placement built with `placeOnCaseStepwise` does not.
   * - Idempotent on the order id: a repeat finds the case the order is on and records only what
   *   is missing; it never opens a second case (decision orders-engine-order-ids).
   * - A throw refuses the order with 502 `upstream_error`, so the call should leave nothing
   *   behind when it throws (the built-in case system writes everything in one transaction); what
   *   it does leave, a retry with the same order id reuses.
   * - Items it could not record although the order is on the case go in `failedItems`; each
   *   becomes its warning and the order stands.
   *
   * The one placement call of the port (decision case-system-port-one-call-placement); a host
   * whose case system has smaller calls builds it with `placeOnCaseStepwise` of
   * @incasso/case-system-conformance/stepwise. Attachments go through `storeAttachment`.
   */
  placeOnCase(input: CasePlacementInput): Promise<CasePlacement>;
  /** Stores a checked PDF on the case. */
  storeAttachment(input: {
    orderId: string;
    caseNumber: string;
    attachmentIndex: number;
    filename: string;
    documentType: "invoice" | "wik_letter" | "other" | null;
    bytes: Uint8Array;
  }): Promise<void>;
  /** Places a task for a handler on the case. */
  addTask(input: CaseTaskInput): Promise<void>;
  /**
   * Optional: called once the order is stored, with every step of its placement done, so a case
   * system can act on the order as a whole (the built-in one records a job for the statutory 14-day
   * letter of a pre-incasso order, spec CreateOrder.type, which its letter runner makes afterwards:
   * decision case-system-wik-letter-jobs). Must be idempotent on the order id. A throw is
   * logged and the order stands: it was answered already.
   */
  orderPlaced?(input: OrderPlacedInput): Promise<void>;
  /**
   * Optional, and needed for the guarantee "no placement without its order": undoes the placement
   * of an order whose order row was never stored (the database failed between `placeOnCase` and
   * the row; decision orders-engine-placement-intents). Removes what the order put on its case
   * (debtors, addresses, invoices, files, note), and the case itself when the order opened it and
   * nothing else is on it (no other order, task, payment or letter), so a follow-up order for the
   * same customer number opens a new case instead of joining an empty one.
   *
   * - Called only for an order that is not stored and, from then on, never will be: the engine
   *   and the placement reconciler call it once the order's intent is claimed.
   * - Idempotent: a repeat, or an order that was never placed (the call failed before the case
   *   system wrote anything), changes nothing and does not throw.
   * - A throw is logged and the reconciler tries again later.
   *
   * A case system without it leaves such a placement standing: the reconciler logs it (an error
   * naming the order id) for someone to remove by hand.
   */
  withdrawPlacement?(input: PlacementWithdrawalInput): Promise<void>;
  /** The live state of a case of the organisation; undefined when the case system does not know it. */
  caseState(query: {
    organisationId: string;
    caseNumber: string;
    today: string;
  }): Promise<CaseState | undefined>;
}
