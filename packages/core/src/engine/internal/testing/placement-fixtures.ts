import type { CheckedAttachment } from "@incasso/pdf-guard";
import type { CaseItemsInput, CasePlacement, CaseSystem } from "../../../case-system-port.js";
import type { Logger } from "../../../logger.js";
import type { NormalisedOrder } from "../../../orders/normalised-order.js";
import { validateCreateOrder } from "../../../orders/validate-create-order.js";
import type { Principal } from "../../../principal.js";
import type { OrderEngine } from "../../order-engine.js";
import { placeOnCase } from "../place-on-case.js";

// Fixtures of the engine's placement tests (place-on-case.test.ts here, and the tests of a host's
// smaller calls behind it in @incasso/case-system-conformance): an order, a principal, a case
// system that records its calls, and the warnings a failed item becomes.

/**
 * The live key the placement tests place with.
 *
 * @example
 * principal.organisationId; // "org_0123456789abcdef"
 */
export const principal: Principal = {
  keyId: "key_0123456789abcdef",
  organisationId: "org_0123456789abcdef",
  organisationName: "Acme BV",
  creditorName: "Acme BV",
  mode: "live",
  visibility: "own",
  creditorManagement: false,
  rateLimits: { perMinute: 60, perDay: 1000 },
};

/**
 * A validated incasso order with two debtors (K-1, K-2) and two invoices (F-1, F-2).
 *
 * @example
 * normalised().invoices.map((i) => i.invoice_number); // ["F-1", "F-2"]
 */
export function normalised(): NormalisedOrder {
  const address = { street: "Teststraat", house_number: "10", postal_code: "9999zz", city: "Testdorp" };
  const result = validateCreateOrder(
    {
      type: "incasso",
      debtors: [
        { type: "business", company_name: "Eerste B.V.", customer_number: "K-1", address },
        { type: "business", company_name: "Tweede B.V.", customer_number: "K-2", address },
      ],
      invoices: [
        { invoice_number: "F-1", invoice_date: "2026-09-01", payment_term_days: 14, amount_cents: 125000 },
        { invoice_number: "F-2", invoice_date: "2026-09-15", due_date: "2026-10-15", amount_cents: 20000 },
      ],
    },
    { today: "2026-11-21", udfDefinitions: [] },
  );
  if (!result.ok) throw new Error(`fixture order is invalid: ${JSON.stringify(result.errors)}`);
  return result.order;
}

/**
 * A checked invoice PDF of the order.
 *
 * @example
 * attachment.filename; // "factuur.pdf"
 */
export const attachment: CheckedAttachment = {
  status: "accepted",
  index: 0,
  filename: "factuur.pdf",
  original_filename: "factuur.pdf",
  document_type: "invoice",
  bytes: new Uint8Array([37, 80, 68, 70]),
  size_bytes: 4,
  page_count: 1,
} as CheckedAttachment;

/**
 * A call the recording case system saw.
 *
 * @example
 * const call: Call = { step: "placeOnCase", input: {} };
 */
export type Call = { step: string; input: unknown };

/**
 * What a logger was told, in order.
 *
 * @example
 * const logged: Logged = [{ message: "case system failed; order refused with 502", details: {} }];
 */
export type Logged = { message: string; details: unknown }[];

/**
 * A host's smaller calls as {@link recordingCaseSystem} records them: one `addItems` when batched,
 * one call per item otherwise (the shape `placeOnCaseStepwise` of
 * @incasso/case-system-conformance/stepwise takes).
 *
 * @example
 * const placeOnCase = placeOnCaseStepwise(steps, { logger });
 */
export type RecordedSteps = {
  findOpenCases(input: unknown): Promise<never[]>;
  openCase(input: unknown): Promise<{ caseNumber: string }>;
  joinCase(input: { caseNumber: string }): Promise<{ caseNumber: string }>;
} & (
  | { addItems(input: unknown): Promise<void> }
  | { setDebtorAddress(input: unknown): Promise<void>; addInvoice(input: unknown): Promise<void> }
);

/**
 * A case system that records every call; the calls `fail` picks throw. With `placement` its
 * placeOnCase answers that; without, `stepwise` builds placeOnCase from recorded smaller calls
 * (with addItems when `batched`), logging to `logged`.
 *
 * @example
 * const { cs, calls } = recordingCaseSystem({ batched: true, placement: { caseNumber: "2026-000001", caseNew: true, otherOpenCases: [] } });
 */
export function recordingCaseSystem(options: {
  batched: boolean;
  fail?: (step: string, input: unknown) => boolean;
  placement?: CasePlacement;
  stepwise?: (steps: RecordedSteps, logger: Pick<Logger, "warn">) => CaseSystem["placeOnCase"];
}) {
  const calls: Call[] = [];
  const step =
    (name: string) =>
    async (input: unknown): Promise<void> => {
      calls.push({ step: name, input });
      if (options.fail?.(name, input)) throw new Error(`${name} is down`);
    };
  const logged: Logged = [];
  const caseSteps = {
    findOpenCases: async (input: unknown) => {
      calls.push({ step: "findOpenCases", input });
      return [];
    },
    openCase: async (input: unknown) => {
      calls.push({ step: "openCase", input });
      return { caseNumber: "2026-000001" };
    },
    joinCase: async (input: { caseNumber: string }) => ({ caseNumber: input.caseNumber }),
  };
  const steps: RecordedSteps = options.batched
    ? { ...caseSteps, addItems: step("addItems") }
    : { ...caseSteps, setDebtorAddress: step("setDebtorAddress"), addInvoice: step("addInvoice") };
  const placement = options.placement;
  const stepwise =
    options.stepwise ??
    (() => {
      throw new Error("recordingCaseSystem needs a placement or stepwise");
    });
  const cs: CaseSystem = {
    placeOnCase:
      placement === undefined
        ? stepwise(steps, { warn: (message, details) => logged.push({ message, details }) })
        : async (input) => {
            calls.push({ step: "placeOnCase", input });
            if (options.fail?.("placeOnCase", input)) throw new Error("placeOnCase is down");
            return placement;
          },
    storeAttachment: step("storeAttachment"),
    addTask: async () => undefined,
    caseState: async () => undefined,
  };
  return { cs, calls, logged };
}

/**
 * The engine's part the placement uses: the case system and a logger that records warnings.
 *
 * @example
 * const { engine, logged } = engineWith(cs);
 */
export function engineWith(caseSystem: CaseSystem, logged: Logged = []) {
  const engine = {
    caseSystem,
    logger: {
      info() {},
      warn: (message: string, details?: unknown) => logged.push({ message, details }),
      error() {},
    },
  } as unknown as OrderEngine;
  return { engine, logged };
}

/**
 * Places {@link normalised} with its principal and the given files through the engine's placement.
 *
 * @example
 * const { placement } = await place(cs, [attachment]); // { caseNumber, caseNew, warnings }
 */
export async function place(
  caseSystem: CaseSystem,
  attachments: CheckedAttachment[] = [],
  logged: Logged = [],
) {
  const { engine } = engineWith(caseSystem, logged);
  const placement = await placeOnCase(engine, {
    principal,
    orderId: "ord_0123456789abcdef",
    order: normalised(),
    creditor: { id: null, name: "Acme BV" },
    title: "Overeenkomst van opdracht voor factuur F-1",
    attachments,
    now: new Date("2026-11-21T10:00:00Z"),
  });
  return { placement, logged };
}

const address = {
  street: "Teststraat",
  house_number: "10",
  house_number_suffix: null,
  postal_code: "9999 ZZ",
  city: "Testdorp",
  country: "NL",
};
/**
 * The `addItems` input of {@link normalised} on case 2026-000001.
 *
 * @example
 * batchedInput.invoices.length; // 2
 */
export const batchedInput: CaseItemsInput = {
  orderId: "ord_0123456789abcdef",
  caseNumber: "2026-000001",
  addresses: [
    { debtorIndex: 0, address },
    { debtorIndex: 1, address },
  ],
  invoices: [
    {
      invoiceIndex: 0,
      invoice: {
        invoice_number: "F-1",
        invoice_date: "2026-09-01",
        due_date: "2026-09-15",
        payment_term_days: 14,
        amount_cents: 125000,
        description: null,
      },
    },
    {
      invoiceIndex: 1,
      invoice: {
        invoice_number: "F-2",
        invoice_date: "2026-09-15",
        due_date: "2026-10-15",
        payment_term_days: null,
        amount_cents: 20000,
        description: null,
      },
    },
  ],
};

/**
 * The warning `debtor_address_failed` for a debtor's name.
 *
 * @example
 * addressFailed("Eerste B.V.").code; // "debtor_address_failed"
 */
export const addressFailed = (name: string) => ({
  code: "debtor_address_failed",
  message: `Het adres van debiteur ${name} kon niet in het dossier worden vastgelegd. De opdracht is wel verwerkt.`,
  invoice_number: null,
});
/**
 * The warning `claim_attach_failed` for an invoice number.
 *
 * @example
 * claimFailed("F-1").invoice_number; // "F-1"
 */
export const claimFailed = (invoiceNumber: string) => ({
  code: "claim_attach_failed",
  message: `Factuur ${invoiceNumber} kon niet aan de vordering in het dossier worden toegevoegd. De opdracht is wel verwerkt.`,
  invoice_number: invoiceNumber,
});

/**
 * The warning `attachment_upload_failed` for {@link attachment}.
 *
 * @example
 * uploadFailed.code; // "attachment_upload_failed"
 */
export const uploadFailed = {
  code: "attachment_upload_failed",
  message: "Bijlage factuur.pdf kon niet in het dossier worden opgeslagen. De opdracht is wel verwerkt.",
  invoice_number: null,
};
