import { type CheckedAttachment, checkAttachments, runDocumentCheck, writeTitle } from "@incasso/pdf-guard";
import type { CaseCreditor } from "../case-system-port.js";
import { isIncassoError } from "../incasso-error.js";
import { debtorDisplayName } from "../orders/display-name.js";
import { isRecord } from "../orders/internal/schema-parts.js";
import type { NormalisedOrder } from "../orders/normalised-order.js";
import { newOrderId } from "../orders/order-id.js";
import type { Order } from "../orders/order-schema.js";
import { totalAmountCents } from "../orders/total-amount.js";
import { validateCreateOrder } from "../orders/validate-create-order.js";
import type { Warning } from "../orders/warnings.js";
import type { Principal } from "../principal.js";
import { amsterdamDate } from "./internal/amsterdam-date.js";
import { toOrder } from "./internal/order-views.js";
import { placeOnCase } from "./internal/place-on-case.js";
import { beginPlacement, storeOrderRow } from "./internal/placement-intent.js";
import { UdfDefinitionsCache } from "./internal/udf-definitions-cache.js";
import { activeContentWarning, testModeWarning } from "./internal/warning-messages.js";
import type { OrderEngine } from "./order-engine.js";
import { OrderEngineError } from "./order-engine-error.js";
import { afterOrderStored, handlersPending } from "./order-handlers.js";
import { type OrderRuleRefusal, runOrderRules } from "./order-rules.js";

/**
 * Options of {@link submitOrder}.
 *
 * @example
 * const options: SubmitOrderOptions = { now: new Date(), orderId: deriveOrderId({ organisationId, mode, idempotencyKey, fingerprint }) };
 */
export interface SubmitOrderOptions {
  /** The time of the submission; default now. Decides "today" (Europe/Amsterdam) for the date rules. */
  now?: Date;
  /**
   * The order id to use; default a new random one. Pass {@link deriveOrderId} of the request's
   * Idempotency-Key so a retry reuses the id (decision orders-engine-order-ids): when an order with
   * this id is stored already, it is returned as it was and nothing is done again.
   */
  orderId?: string;
  /**
   * Called when the order with `orderId` was stored already and is returned as it was: the answer
   * is a replay of an earlier request's (its response was lost, or its Idempotency-Key record was
   * not kept), and the HTTP layer says so with `Idempotency-Replayed: true`.
   */
  onAlreadyStored?: () => void;
}

// One cache per engine, made on its first order (the engine is a plain object of settings).
const udfCaches = new WeakMap<OrderEngine, UdfDefinitionsCache>();
function udfDefinitions(engine: OrderEngine, organisationId: string) {
  let cache = udfCaches.get(engine);
  if (cache === undefined) {
    cache = new UdfDefinitionsCache(engine.store, engine.udfDefinitionsTtlMs);
    udfCaches.set(engine, cache);
  }
  return cache.get(organisationId);
}

const PROBLEM_MESSAGES = {
  validation_error: "The order has invalid fields; see errors.",
  amount_too_high: "An invoice amount is above the maximum of 100000000000 cents.",
  wik_letter_required:
    "An incasso order against an individual needs an attachment with document_type wik_letter (the 14-day letter).",
} as const;

async function resolveCreditor(
  engine: OrderEngine,
  principal: Principal,
  ref: NormalisedOrder["creditor"],
): Promise<CaseCreditor> {
  // Spec CreateOrder.creditor: "When omitted, the key's own principal is the creditor."
  if (ref === null) return { id: null, name: principal.creditorName };
  const byId = "id" in ref;
  const found = byId
    ? await engine.store.creditors.findById(principal.organisationId, ref.id)
    : await engine.store.creditors.findByReference(principal.organisationId, ref.reference);
  if (found === undefined) {
    const field = byId ? "creditor.id" : "creditor.reference";
    throw new OrderEngineError("unknown_creditor", "The creditor is not found in this account.", {
      errors: [
        {
          field,
          code: "unknown_creditor",
          message: `no creditor with this ${byId ? "id" : "reference"} in the account`,
        },
      ],
    });
  }
  return { id: found.id, name: found.name };
}

async function checkOrderAttachments(
  engine: OrderEngine,
  order: NormalisedOrder,
): Promise<CheckedAttachment[]> {
  if (order.attachments.length === 0) return [];
  let result: Awaited<ReturnType<typeof checkAttachments>>;
  try {
    result = await checkAttachments(order.attachments, {
      limits: engine.attachmentLimits,
      refuseActiveContent: engine.refuseActivePdf,
      ...(engine.pdfEngine ? { engine: engine.pdfEngine } : {}),
    });
  } catch (error) {
    // The PDF engine could not judge the files (busy, shut down, not startable): that says nothing
    // about the client's PDFs, so it must never become 422 invalid_attachment (decision
    // orders-engine-pdf-engine-busy).
    // A busy engine's PdfGuardError has the shared error shape: its Retry-After header says when a
    // worker may be free (RFC 9110 §10.2.3).
    const retry = isIncassoError(error) ? Number(error.headers?.["Retry-After"]) : Number.NaN;
    throw new OrderEngineError(
      "attachment_check_unavailable",
      "The attachments could not be checked right now; nothing was stored. Retry later with the same Idempotency-Key.",
      { retryAfterSeconds: Number.isSafeInteger(retry) && retry > 0 ? retry : 5, cause: error },
    );
  }
  if (!result.ok) {
    throw new OrderEngineError(
      result.problem_code ?? "invalid_attachment",
      result.detail ?? "An attachment was refused; see errors.",
      { errors: result.errors },
    );
  }
  return result.attachments.filter((a): a is CheckedAttachment => a.status === "accepted");
}

/**
 * POST /orders as a call: validates a CreateOrder body against every rule of the spec, checks the
 * attachments with @incasso/pdf-guard (422 `invalid_attachment`; a PDF with active content gets the
 * warning `pdf_active_content`, or is refused when the engine's `refuseActivePdf` is set), compares
 * them with the declared data (warnings only), and then, for a live key, puts the order on a case:
 * added to the oldest open case for a debtor's customer_number (`case.new` false, warning
 * `attached_to_existing_case`, and `multiple_open_cases` when there were several), otherwise a new
 * case. A test key gets the
 * same checks and no case (mode `test`, `case_number` null, warning `test_mode`). Returns the
 * spec's Order object (201).
 *
 * Nothing is stored when it throws. The order row is written last, after the case system
 * answered, so a failure before the case exists leaves nothing; a case-system failure is 502
 * `upstream_error`, and a retry with the same order id reuses the case (the port is idempotent on
 * the order id). A placement whose order row was not stored is withdrawn: at once for an order
 * without an order id of its Idempotency-Key, else by the placement reconciler after its grace
 * period (decision orders-engine-placement-intents).
 *
 * @throws {OrderEngineError} `creditor_feature_disabled` (403), `validation_error`,
 * `amount_too_high`, `wik_letter_required`, `unknown_creditor`, `invalid_attachment` (422),
 * `idempotency_conflict` (409, `options.orderId` is another key's order this key may not read),
 * `upstream_error` (502), `attachment_check_unavailable` (503); {@link OrderRuleRefusal} (422, a code
 * of the host's own) when a host's rule refuses the order (decision orders-host-hooks).
 * @example
 * const order = await submitOrder(engine, principal, {
 *   type: "pre-incasso",
 *   debtors: [{ type: "business", company_name: "Voorbeeld B.V.", customer_number: "K-1",
 *     address: { street: "Teststraat", house_number: "1", postal_code: "9999 ZZ", city: "Testdorp" } }],
 *   invoices: [{ invoice_number: "F-1", invoice_date: "2026-10-01", payment_term_days: 14, amount_cents: 125000 }],
 * });
 * order.case.case_number; // "2026-000001" with a live key, null with a test key
 */
export async function submitOrder(
  engine: OrderEngine,
  principal: Principal,
  body: unknown,
  options: SubmitOrderOptions = {},
): Promise<Order> {
  const now = options.now ?? new Date();
  if (options.orderId !== undefined) {
    // A retry of a request whose response was lost: the order is answered as it was stored. The
    // case system's `orderPlaced` may not have run for it (the process stopped between the order
    // row and the hook); it is idempotent on the order id, so it runs again (at least once).
    const stored = await engine.store.orders.findById(principal.organisationId, options.orderId);
    if (stored !== undefined) {
      // The same Idempotency-Key and content from another key of the organisation derive the same
      // id; a key that may read only its own orders is never answered with another key's order (it
      // would show what GET answers 404 for; decision idempotency-keys).
      if (principal.visibility === "own" && stored.keyId !== principal.keyId) {
        throw new OrderEngineError(
          "idempotency_conflict",
          "This Idempotency-Key was used before by another API key of the organisation, whose order this key may not see; use a new key for a new request.",
        );
      }
      if (stored.caseNumber !== null) {
        await afterPlacement(engine, {
          orderId: stored.id,
          principal,
          caseNumber: stored.caseNumber,
          caseNew: stored.caseNew,
          order: { type: stored.type },
          now: stored.createdAt,
        });
      }
      options.onAlreadyStored?.();
      return afterOrderStored(engine, toOrder(stored), principal, true);
    }
  }
  // Spec CreateOrder.creditor: "Sent without activation: 403 creditor_feature_disabled", checked
  // before the fields so the client learns the real obstacle first.
  if (
    isRecord(body) &&
    body.creditor !== undefined &&
    body.creditor !== null &&
    !principal.creditorManagement
  ) {
    throw new OrderEngineError(
      "creditor_feature_disabled",
      "Creditor management is not activated for this key; leave out creditor or ask the operator to activate it.",
    );
  }
  const validation = validateCreateOrder(body, {
    today: amsterdamDate(now),
    udfDefinitions: await udfDefinitions(engine, principal.organisationId),
    maxAttachments: engine.attachmentLimits.maxAttachments,
  });
  if (!validation.ok) {
    throw new OrderEngineError(validation.code, PROBLEM_MESSAGES[validation.code], {
      errors: validation.errors,
    });
  }
  const order = validation.order;
  const warnings: Warning[] = [...validation.warnings];
  const creditor = await resolveCreditor(engine, principal, order.creditor);
  const attachments = await checkOrderAttachments(engine, order);
  for (const attachment of attachments) {
    if (attachment.active_content.length > 0) {
      warnings.push(activeContentWarning(attachment, attachment.active_content));
    }
  }
  const declared = { debtors: order.debtors, invoices: order.invoices };
  const documentWarnings = await runDocumentCheck(
    engine.documentChecker,
    { ...declared, attachments },
    { timeoutMs: engine.aiTimeoutMs, logger: engine.logger },
  );
  warnings.push(
    ...documentWarnings.map((w) => ({ code: w.code, message: w.message, invoice_number: w.invoice_number })),
  );
  // The host's rules (decision orders-host-hooks): after every check, before anything is placed.
  warnings.push(...(await runOrderRules(engine.hooks, { order, principal, creditor, now })));

  const orderId = options.orderId ?? newOrderId();
  const debtors = order.debtors.map((d) => ({
    name: debtorDisplayName(d),
    customer_number: d.customer_number,
  }));
  let caseNumber: string | null = null;
  let caseNew = true;
  let intent: Awaited<ReturnType<typeof beginPlacement>> | undefined;
  if (principal.mode === "test") {
    // Spec: "A test key validates the whole request ... but creates no case." No title is written
    // either: it would only be stored on a case.
    warnings.push(testModeWarning());
  } else {
    const title =
      order.title ??
      (await writeTitle(
        engine.titleWriter,
        { description: order.description, ...declared },
        { timeoutMs: engine.aiTimeoutMs, logger: engine.logger },
      ));
    // The intent is recorded before the case system is called and ended with the order row, so a
    // failure between the two never leaves a placement without its order (issue 29; decision
    // orders-engine-placement-intents).
    intent = await beginPlacement(engine, principal, orderId, { keyed: options.orderId !== undefined });
    const placed = await intent.run(() =>
      placeOnCase(engine, { principal, orderId, order, creditor, title, attachments, now }),
    );
    caseNumber = placed.caseNumber;
    caseNew = placed.caseNew;
    warnings.push(...placed.warnings);
  }
  // With the host's handlers pending, in the same statement (decision orders-host-hooks).
  const pending = handlersPending(engine, "order", principal);
  const { order: stored } = await storeOrderRow(engine, intent, pending, {
    id: orderId,
    organisationId: principal.organisationId,
    keyId: principal.keyId,
    mode: principal.mode,
    type: order.type,
    reference: order.reference,
    caseNumber,
    caseNew,
    creditorId: creditor.id,
    debtors,
    invoiceCount: order.invoices.length,
    totalAmountCents: totalAmountCents(order.invoices),
    metadata: order.metadata,
    udfFields: order.udf_fields,
    warnings,
    createdAt: now,
  });
  if (caseNumber !== null)
    await afterPlacement(engine, { orderId, principal, caseNumber, caseNew, order, now });
  return afterOrderStored(engine, toOrder(stored), principal, false);
}

// After the order row exists, so whatever the case system does now (a letter and its
// correspondence.sent event) can name an order the client can already read. The order stands
// whatever happens here: a failure is only logged (decision case-system-wik-letter).
async function afterPlacement(
  engine: OrderEngine,
  input: {
    orderId: string;
    principal: Principal;
    caseNumber: string;
    caseNew: boolean;
    order: { type: "pre-incasso" | "incasso" };
    now: Date;
  },
): Promise<void> {
  const hook = engine.caseSystem.orderPlaced;
  if (hook === undefined) return;
  try {
    await hook.call(engine.caseSystem, {
      orderId: input.orderId,
      organisationId: input.principal.organisationId,
      caseNumber: input.caseNumber,
      caseNew: input.caseNew,
      type: input.order.type,
      at: input.now,
    });
  } catch (error) {
    engine.logger.warn("case system failed to finish a placed order; the order stands", {
      orderId: input.orderId,
      caseNumber: input.caseNumber,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
