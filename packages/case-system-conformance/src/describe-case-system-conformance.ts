import {
  type CaseSystem,
  type CaseTaskInput,
  type IncassoStore,
  issueApiKey,
  newId,
  type OrderRecord,
  StoreUnavailableError,
} from "@incasso/core";
import { createApi, type IncassoApi } from "@incasso/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  CONFORMANCE_ORDER_PRINCIPAL_CENTS,
  conformanceOrder,
  conformancePdfBase64,
  conformancePlacement,
} from "./conformance-orders.js";
import type { CaseSystemConformanceOptions, CaseSystemConformanceTarget } from "./conformance-target.js";

interface Organisation {
  key: string;
  organisationId: string;
  creditorName: string;
}

interface Warning {
  code: string;
  message: string;
  invoice_number: string | null;
}

interface WebhookBody {
  id: string;
  type: string;
  created_at: string;
  data: { order_id: string; case_number: string; reference: string | null; case_event: string | null };
}

const SILENT = { info() {}, warn() {}, error() {} };

/**
 * The case-system conformance kit: every rule of the CaseSystem port (@incasso/core) checked
 * through the API the way a client meets it, against the case system `create` hands over. One
 * call in a vitest test file registers the suite:
 *
 * - a repeated placement with the same order id answers the same case, never a second (decision
 *   orders-engine-order-ids), also when the first answer was lost on the way;
 * - a follow-up order with the same `customer_number` joins the open case (spec: "is added to that
 *   open case"), never a closed one; with several open cases it joins the oldest and warns
 *   `multiple_open_cases` (decision orders-engine-multiple-open-cases);
 * - a failing placement answers 502 `upstream_error` with nothing stored (spec Errors);
 * - each partial failure yields its warning: `attachment_upload_failed`, `debtor_address_failed`,
 *   `claim_attach_failed` (spec Warning codes), and the order stands;
 * - GET /orders/{id} reads the live status, balance and actions back (spec OrderStatus);
 * - a task's outcome and the case events reach the order's actions and the outbox with the spec's
 *   webhook body (decision case-system-host-reports).
 *
 * Each test works in an organisation of its own, so the suite runs on a case system that keeps
 * other data.
 *
 * @example
 * // my-case-system.conformance.test.ts
 * import { describeCaseSystemConformance } from "@incasso/case-system-conformance";
 * describeCaseSystemConformance({
 *   name: "our case system",
 *   create: async () => ({ caseSystem, store, handler, failNext: (fault) => upstream.failNext(fault) }),
 *   reset: async () => upstream.forgetFaults(),
 * });
 */
export function describeCaseSystemConformance(options: CaseSystemConformanceOptions): void {
  const timeoutMs = options.reportTimeoutMs ?? 10_000;
  describe(`case system conformance: ${options.name ?? "case system"}`, () => {
    let target: CaseSystemConformanceTarget;
    let api: IncassoApi;
    let loseNextAnswer = false;
    // The kit's fault in the store: the next order row fails as if the database path went away
    // between the placement and the row (decision orders-engine-placement-intents).
    let failNextRow = false;
    // The tasks the API placed, as addTask received them: the API does not show a control
    // request's id (spec OrderAction.id is the order id), the task a handler resolves carries it.
    const tasks: CaseTaskInput[] = [];
    let pdf: string;
    // A clock that never stands still, so cases opened one after the other have distinct times
    // (the merge rule orders open cases by opening time).
    let last = 0;
    const now = () => {
      last = Math.max(Date.now(), last + 1);
      return new Date(last);
    };
    const run = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) =>
      b.toString(16).padStart(2, "0"),
    ).join("");
    let n = 0;

    beforeAll(async () => {
      target = await options.create();
      // Calls go to the target's own methods (its `this`), with one addition of the kit: an answer
      // of placeOnCase that is lost after the placement ran, as when a connection drops.
      const inner = target.caseSystem;
      const caseSystem: CaseSystem = {
        placeOnCase: async (input) => {
          const placed = await inner.placeOnCase(input);
          if (loseNextAnswer) {
            loseNextAnswer = false;
            throw new Error("conformance kit: the answer of placeOnCase was lost");
          }
          return placed;
        },
        storeAttachment: (input) => inner.storeAttachment(input),
        addTask: async (input) => {
          await inner.addTask(input);
          tasks.push(input);
        },
        caseState: (query) => inner.caseState(query),
        ...(inner.withdrawPlacement
          ? { withdrawPlacement: (input) => inner.withdrawPlacement?.(input) ?? Promise.resolve() }
          : {}),
        ...(inner.orderPlaced
          ? { orderPlaced: (input) => inner.orderPlaced?.(input) ?? Promise.resolve() }
          : {}),
      };
      const intents = target.store.placementIntents;
      const store: IncassoStore = Object.create(target.store, {
        placementIntents: {
          value: {
            ...intents,
            record: intents.record.bind(intents),
            claim: intents.claim.bind(intents),
            claimStale: intents.claimStale.bind(intents),
            end: intents.end.bind(intents),
            remove: intents.remove.bind(intents),
            endWithOrder(order: OrderRecord, options?: Parameters<typeof intents.endWithOrder>[1]) {
              if (!failNextRow) return intents.endWithOrder(order, options);
              failNextRow = false;
              return Promise.reject(
                new StoreUnavailableError("conformance kit: the order row was not stored"),
              );
            },
          },
        },
      });
      api = createApi({
        store,
        caseSystem,
        now,
        logger: SILENT,
      });
      pdf = await conformancePdfBase64();
    });
    afterAll(async () => {
      await target?.close?.();
    });
    beforeEach(async () => {
      loseNextAnswer = false;
      failNextRow = false;
      await options.reset(target);
    });

    /** A fresh organisation with a live key; customer numbers are fresh per call too. */
    const organisation = async (): Promise<Organisation> => {
      const issued = await issueApiKey(target.store, {
        organisation: `Conformance ${run} ${++n}`,
        mode: "live",
        perMinute: 1000,
      });
      return {
        key: issued.key,
        organisationId: issued.record.organisationId,
        creditorName: issued.record.creditorName,
      };
    };
    const customer = () => `KIT-${run}-${++n}`;

    const request = (org: Organisation, path: string, init: RequestInit = {}) =>
      api.fetch(
        new Request(`http://conformance.test${api.basePath}${path}`, {
          ...init,
          headers: {
            authorization: `Bearer ${org.key}`,
            ...(init.body === undefined ? {} : { "content-type": "application/json" }),
            ...((init.headers as Record<string, string>) ?? {}),
          },
        }),
      );
    const post = (org: Organisation, body: unknown, headers: Record<string, string> = {}) =>
      request(org, "/orders", { method: "POST", body: JSON.stringify(body), headers });
    const placed = async (org: Organisation, body: unknown) => {
      const res = await post(org, body);
      const order = await res.json();
      expect(res.status, JSON.stringify(order)).toBe(201);
      return order as {
        id: string;
        case: { case_number: string; new: boolean };
        warnings: Warning[];
      };
    };
    const status = async (org: Organisation, orderId: string) => {
      const res = await request(org, `/orders/${orderId}`);
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      return body as {
        case: { case_number: string; status: string | null; open: boolean; balance_due_cents?: number };
        actions: { action: string; status: string; reason: string | null }[];
      };
    };
    const codes = (warnings: Warning[]) => warnings.map((w) => w.code).sort();

    /** Waits until the check passes (what a case system reports may arrive after the handler's call). */
    const eventually = async <T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const value = await read();
        if (ok(value) || Date.now() > until) return value;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const webhookBodies = async (org: Organisation) =>
      (await target.store.outbox.list({ organisationId: org.organisationId, limit: 200 })).map(
        (event) => JSON.parse(event.payload) as WebhookBody,
      );
    const eventOf = async (org: Organisation, type: string, orderId: string) =>
      (
        await eventually(
          () => webhookBodies(org),
          (bodies) => bodies.some((b) => b.type === type && b.data.order_id === orderId),
        )
      ).find((b) => b.type === type && b.data.order_id === orderId);
    const taskOf = (orderId: string, action: CaseTaskInput["action"]) => {
      const task = tasks.findLast((t) => t.orderId === orderId && t.action === action);
      expect(task, `addTask received the ${action} of ${orderId}`).toBeDefined();
      return task as CaseTaskInput;
    };
    const yesterday = () => new Date(now().getTime() - 86_400_000).toISOString().slice(0, 10);

    describe("placement is idempotent on the order id", () => {
      it("placeOnCase repeated with the same order id answers the same case and opens no second", async () => {
        const org = await organisation();
        const number = customer();
        const input = conformancePlacement({
          orderId: newId("ord"),
          organisationId: org.organisationId,
          creditorName: org.creditorName,
          customerNumber: number,
          at: now(),
        });
        const first = await target.caseSystem.placeOnCase(input);
        const again = await target.caseSystem.placeOnCase({ ...input, at: now() });
        expect(first.caseNew).toBe(true);
        expect(first.otherOpenCases).toEqual([]);
        expect(again.caseNumber).toBe(first.caseNumber);
        expect(again.caseNew).toBe(true);

        // Another order of the debtor joins that case; its repeat answers the same.
        const join = { ...input, orderId: newId("ord"), at: now() };
        const joined = await target.caseSystem.placeOnCase(join);
        expect([joined.caseNumber, joined.caseNew, joined.otherOpenCases]).toEqual([
          first.caseNumber,
          false,
          [],
        ]);
        const joinedAgain = await target.caseSystem.placeOnCase(join);
        expect([joinedAgain.caseNumber, joinedAgain.caseNew]).toEqual([first.caseNumber, false]);

        // One open case only: an order through the API joins it without multiple_open_cases.
        const order = await placed(org, conformanceOrder([number]));
        expect(order.case).toEqual({ case_number: first.caseNumber, new: false });
        expect(codes(order.warnings)).toEqual(["attached_to_existing_case"]);
      });

      it("a lost answer: 502, and the retry with the same Idempotency-Key answers the case placed the first time", async () => {
        const org = await organisation();
        const number = customer();
        const body = conformanceOrder([number]);
        const headers = { "idempotency-key": `kit-lost-${run}-${n}` };
        loseNextAnswer = true;
        const lost = await post(org, body, headers);
        expect(lost.status).toBe(502);
        const retry = await post(org, body, headers);
        expect(retry.status).toBe(201);
        const order = await retry.json();
        expect(order.case.new).toBe(true);
        expect(order.warnings).toEqual([]);
        const next = await placed(org, conformanceOrder([number], { reference: "R-NEXT" }));
        expect(next.case).toEqual({ case_number: order.case.case_number, new: false });
        expect(codes(next.warnings)).toEqual(["attached_to_existing_case"]);
      });
    });

    describe("no placement without its order", () => {
      const withdraw = () => {
        const fn = target.caseSystem.withdrawPlacement;
        expect(
          fn,
          "withdrawPlacement undoes a placement whose order row was never stored (decision orders-engine-placement-intents)",
        ).toBeDefined();
        return (input: { orderId: string; organisationId: string }) =>
          (fn as NonNullable<typeof fn>).call(target.caseSystem, input);
      };

      it("withdrawPlacement removes the order from its case, and the case it opened alone; a repeat and an order never placed change nothing", async () => {
        const org = await organisation();
        const number = customer();
        const place = (orderId: string) =>
          target.caseSystem.placeOnCase(
            conformancePlacement({
              orderId,
              organisationId: org.organisationId,
              creditorName: org.creditorName,
              customerNumber: number,
              at: now(),
            }),
          );
        const first = newId("ord");
        expect((await place(first)).caseNew).toBe(true);
        await withdraw()({ orderId: first, organisationId: org.organisationId });
        await withdraw()({ orderId: first, organisationId: org.organisationId });
        await withdraw()({ orderId: newId("ord"), organisationId: org.organisationId });
        // Nothing is left open for the debtor: the next order opens a case of its own.
        const second = newId("ord");
        const opened = await place(second);
        expect([opened.caseNew, opened.otherOpenCases]).toEqual([true, []]);
        // An order that joined leaves the case to the order that opened it.
        const joiner = newId("ord");
        expect((await place(joiner)).caseNew).toBe(false);
        await withdraw()({ orderId: joiner, organisationId: org.organisationId });
        const third = await place(newId("ord"));
        expect([third.caseNumber, third.caseNew, third.otherOpenCases]).toEqual([
          opened.caseNumber,
          false,
          [],
        ]);
      });

      it("the order row fails after the placement: 503, and the client's retry without an Idempotency-Key is the one order, on a new case", async () => {
        withdraw();
        const org = await organisation();
        const body = conformanceOrder([customer()], { reference: "R-ROW" });
        failNextRow = true;
        const refused = await post(org, body);
        expect(refused.status).toBe(503);
        expect(refused.headers.get("retry-after")).toBe("5");
        const retry = await placed(org, body);
        expect(retry.case.new).toBe(true);
        expect(codes(retry.warnings)).toEqual([]);
        const list = await request(org, "/orders");
        expect(((await list.json()) as { data: unknown[] }).data).toHaveLength(1);
      });
    });

    describe("merge into the open case", () => {
      it("a follow-up order with the same customer_number joins the open case", async () => {
        const org = await organisation();
        const number = customer();
        const first = await placed(org, conformanceOrder([number]));
        expect(first.case.new).toBe(true);
        expect(first.warnings).toEqual([]);
        const second = await placed(org, conformanceOrder([number], { reference: "R-FOLLOW-UP" }));
        expect(second.case).toEqual({ case_number: first.case.case_number, new: false });
        expect(codes(second.warnings)).toEqual(["attached_to_existing_case"]);
        expect((await status(org, second.id)).case.case_number).toBe(first.case.case_number);
        // Another debtor, another case.
        const other = await placed(org, conformanceOrder([customer()]));
        expect(other.case.new).toBe(true);
        expect(other.case.case_number).not.toBe(first.case.case_number);
      });

      it("a closed case is never joined", async () => {
        const org = await organisation();
        const number = customer();
        const first = await placed(org, conformanceOrder([number]));
        await target.handler.closeCase({ caseNumber: first.case.case_number });
        const afterClose = await eventually(
          () => status(org, first.id),
          (s) => s.case.open === false,
        );
        expect(afterClose.case.open).toBe(false);
        const next = await placed(org, conformanceOrder([number]));
        expect(next.case.new).toBe(true);
        expect(next.case.case_number).not.toBe(first.case.case_number);
        expect(next.warnings).toEqual([]);
      });

      it("several open cases: the order joins the oldest and multiple_open_cases names the others", async () => {
        const org = await organisation();
        const [a, b] = [customer(), customer()];
        const older = await placed(org, conformanceOrder([a]));
        const newer = await placed(org, conformanceOrder([b]));
        expect(newer.case.case_number).not.toBe(older.case.case_number);
        // The newer case's debtor first: the choice goes by age, not by the order of the debtors.
        const both = await placed(org, conformanceOrder([b, a]));
        expect(both.case).toEqual({ case_number: older.case.case_number, new: false });
        expect(codes(both.warnings)).toEqual(["attached_to_existing_case", "multiple_open_cases"]);
        const multiple = both.warnings.find((w) => w.code === "multiple_open_cases");
        expect(multiple?.message).toContain(newer.case.case_number);
      });
    });

    describe("failures", () => {
      it("a failing placement answers 502 upstream_error and stores nothing", async () => {
        const org = await organisation();
        const number = customer();
        await target.failNext("placement");
        const res = await post(org, conformanceOrder([number]), {
          "idempotency-key": `kit-fail-${run}-${n}`,
        });
        expect(res.status).toBe(502);
        expect(res.headers.get("content-type")).toBe("application/problem+json");
        expect(await res.json()).toMatchObject({ status: 502, code: "upstream_error" });
        const list = await request(org, "/orders");
        expect(list.status).toBe(200);
        expect((await list.json()).data).toEqual([]);
        // No case was left open for the debtor: the next order opens one.
        const next = await placed(org, conformanceOrder([number]));
        expect(next.case.new).toBe(true);
        expect(next.warnings).toEqual([]);
      });

      it("an attachment the case system cannot store: 201 with attachment_upload_failed", async () => {
        const org = await organisation();
        await target.failNext("attachment");
        const order = await placed(
          org,
          conformanceOrder([customer()], {
            attachments: [{ filename: "factuur-1.pdf", content_base64: pdf, document_type: "invoice" }],
          }),
        );
        expect(order.case.new).toBe(true);
        expect(order.warnings.map((w) => [w.code, w.message])).toEqual([
          [
            "attachment_upload_failed",
            "Bijlage factuur-1.pdf kon niet in het dossier worden opgeslagen. De opdracht is wel verwerkt.",
          ],
        ]);
        expect((await status(org, order.id)).case.case_number).toBe(order.case.case_number);
      });

      it("a debtor address the case system cannot record: 201 with debtor_address_failed", async () => {
        const org = await organisation();
        await target.failNext("debtor_address");
        const order = await placed(org, conformanceOrder([customer()]));
        expect(order.warnings).toEqual([
          {
            code: "debtor_address_failed",
            message:
              "Het adres van debiteur Voorbeeld 1 B.V. kon niet in het dossier worden vastgelegd. De opdracht is wel verwerkt.",
            invoice_number: null,
          },
        ]);
        expect((await status(org, order.id)).case.case_number).toBe(order.case.case_number);
      });

      it("an invoice the case system cannot attach: 201 with claim_attach_failed", async () => {
        const org = await organisation();
        await target.failNext("invoice");
        const order = await placed(org, conformanceOrder([customer()]));
        expect(order.warnings).toEqual([
          {
            code: "claim_attach_failed",
            message:
              "Factuur F-1 kon niet aan de vordering in het dossier worden toegevoegd. De opdracht is wel verwerkt.",
            invoice_number: "F-1",
          },
        ]);
        expect((await status(org, order.id)).case.case_number).toBe(order.case.case_number);
      });
    });

    describe("reads and reports", () => {
      it("status, balance and actions read back through GET /orders/{id}", async () => {
        const org = await organisation();
        const order = await placed(org, conformanceOrder([customer()]));
        const fresh = await status(org, order.id);
        expect(fresh.case.case_number).toBe(order.case.case_number);
        expect(fresh.case.open).toBe(true);
        expect(typeof fresh.case.status).toBe("string");
        // Spec OrderStatus.case.balance_due_cents: omitted on a new case.
        expect(fresh.case).not.toHaveProperty("balance_due_cents");
        expect(fresh.actions).toEqual([]);

        await target.handler.startTreatment({ caseNumber: order.case.case_number });
        const treated = await eventually(
          () => status(org, order.id),
          (s) => s.case.balance_due_cents !== undefined,
        );
        const balance = treated.case.balance_due_cents as number;
        expect(Number.isInteger(balance)).toBe(true);
        // Principal plus costs and interest: at least the principal of the order.
        expect(balance).toBeGreaterThanOrEqual(CONFORMANCE_ORDER_PRINCIPAL_CENTS);

        await target.handler.bookPayment({
          caseNumber: order.case.case_number,
          amountCents: 10_000,
          paymentDate: yesterday(),
        });
        const paid = await eventually(
          () => status(org, order.id),
          (s) => s.case.balance_due_cents === balance - 10_000,
        );
        expect(paid.case.balance_due_cents).toBe(balance - 10_000);

        const hold = await request(org, `/orders/${order.id}/hold`, {
          method: "POST",
          body: JSON.stringify({ reason: "Debiteur belt terug." }),
        });
        expect(hold.status).toBe(202);
        const withActions = await status(org, order.id);
        expect(withActions.actions).toMatchObject([
          { action: "hold", status: "requested", reason: "Debiteur belt terug." },
        ]);
      });

      it("a task's outcome reaches the order's actions and the outbox as case.updated", async () => {
        const org = await organisation();
        const order = await placed(org, conformanceOrder([customer()]));
        const hold = await request(org, `/orders/${order.id}/hold`, { method: "POST" });
        expect(hold.status).toBe(202);
        const holdTask = taskOf(order.id, "hold");
        expect(holdTask).toMatchObject({
          organisationId: org.organisationId,
          caseNumber: order.case.case_number,
        });
        await target.handler.resolveTask({
          caseNumber: order.case.case_number,
          taskId: holdTask.taskId,
          outcome: "done",
          note: "Incasso gepauzeerd.",
        });
        const done = await eventually(
          () => status(org, order.id),
          (s) => s.actions[0]?.status === "done",
        );
        expect(done.actions.map((a) => [a.action, a.status])).toEqual([["hold", "done"]]);
        const updated = await eventOf(org, "case.updated", order.id);
        expect(updated?.data).toMatchObject({
          order_id: order.id,
          case_number: order.case.case_number,
          reference: "R-CONFORMANCE",
        });
        expect(updated?.id).toMatch(/^evt_/);

        const withdraw = await request(org, `/orders/${order.id}/withdraw`, {
          method: "POST",
          body: JSON.stringify({ reason: "Toch niet." }),
        });
        expect(withdraw.status).toBe(202);
        const withdrawTask = taskOf(order.id, "withdraw");
        expect(withdrawTask.reason).toBe("Toch niet.");
        await target.handler.resolveTask({
          caseNumber: order.case.case_number,
          taskId: withdrawTask.taskId,
          outcome: "rejected",
          note: "Vordering blijft open.",
        });
        const rejected = await eventually(
          () => status(org, order.id),
          (s) => s.actions[0]?.status === "rejected",
        );
        expect(rejected.actions.map((a) => [a.action, a.status])).toEqual([
          ["withdraw", "rejected"],
          ["hold", "done"],
        ]);
      });

      it("a booked payment and a closed case reach the outbox as payment.received and case.closed", async () => {
        const org = await organisation();
        const order = await placed(org, conformanceOrder([customer()]));
        await target.handler.bookPayment({
          caseNumber: order.case.case_number,
          amountCents: 25_000,
          paymentDate: yesterday(),
        });
        const payment = await eventOf(org, "payment.received", order.id);
        expect(payment?.data).toMatchObject({
          order_id: order.id,
          case_number: order.case.case_number,
          reference: "R-CONFORMANCE",
        });
        expect(typeof payment?.data.case_event).toBe("string");
        expect(Number.isNaN(Date.parse(payment?.created_at ?? ""))).toBe(false);

        await target.handler.closeCase({ caseNumber: order.case.case_number });
        const closed = await eventOf(org, "case.closed", order.id);
        expect(closed?.data).toMatchObject({ order_id: order.id, case_number: order.case.case_number });
        expect((await status(org, order.id)).case.open).toBe(false);
      });
    });
  });
}
