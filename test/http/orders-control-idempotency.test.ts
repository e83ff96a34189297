import { randomBytes } from "node:crypto";
import { type BuiltInCaseSystem, openCaseSystemStore } from "@incasso/case-system";
import { type CaseSystem, issueApiKey } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import {
  type FaultyCaseSystem,
  faultyCaseSystem,
  type RunningTransport,
  responseValidator,
  transports,
} from "@incasso/test-utils";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { bearer, business, count, json, orderBody, ordersApi } from "./orders-fixtures.js";

// Issue 28, point 8: hold, withdraw and payments take an Idempotency-Key with the rules of POST
// /orders (decision orders-control-idempotency). On PGlite, and on PostgreSQL whenever
// TEST_DATABASE_URL is set, with the requests spread over two APIs on two stores of their own (two
// connection pools on one database, as two API processes are).
const url = process.env.TEST_DATABASE_URL;
const targets: { name: string; open: () => Promise<{ stores: SqlStore[]; schema?: string }> }[] = [
  {
    name: "PGlite, one API",
    open: async () => {
      const store = await openCaseSystemStore();
      return { stores: [store, store] };
    },
  },
];
if (url) {
  targets.push({
    name: "PostgreSQL, two APIs",
    open: async () => {
      const schema = `control_idem_${randomBytes(6).toString("hex")}`;
      const first = await openCaseSystemStore({ databaseUrl: url, schema });
      const second = await openCaseSystemStore({ databaseUrl: url, schema });
      return { stores: [first, second], schema };
    },
  });
}

// The clock moves only when a test says so; the rate-limit window stays put.
let seconds = 0;
const now = () => new Date(Date.UTC(2026, 11, 1, 10, 0, 0) + seconds * 1000);

/**
 * A gate in front of addTask: while shut, the first control request waits inside its task, so
 * its duplicates meet its claim in progress. It opens by itself when a second task comes in (a
 * failure the test then reports), so no test can wait for ever.
 */
function taskGate() {
  let open: () => void = () => {};
  let shut: Promise<void> | undefined;
  let entered = 0;
  return {
    close() {
      entered = 0;
      shut = new Promise((resolve) => {
        open = resolve;
      });
    },
    open: () => open(),
    wrap(inner: CaseSystem): CaseSystem {
      return {
        ...inner,
        addTask: async (input) => {
          entered++;
          if (entered > 1) open();
          await shut;
          return inner.addTask(input);
        },
      };
    },
  };
}

describe.each(targets)("Idempotency-Key on hold, withdraw and payments on $name", (target) => {
  let stores: SqlStore[];
  let schema: string | undefined;
  let cases: BuiltInCaseSystem;
  let faulty: FaultyCaseSystem[];
  const gate = taskGate();
  let apis: ReturnType<typeof ordersApi>["api"][];
  let check: ReturnType<typeof responseValidator>;
  beforeAll(async () => {
    ({ stores, schema } = await target.open());
    const built = stores.map((store) => ordersApi(store, { now }));
    cases = (built[0] as (typeof built)[number]).cases;
    faulty = built.map((b) => faultyCaseSystem(b.cases));
    apis = stores.map(
      (store, i) => ordersApi(store, { now, caseSystem: gate.wrap(faulty[i] as FaultyCaseSystem) }).api,
    );
    check = responseValidator((apis[0] as (typeof apis)[number]).openapi());
  });
  afterAll(async () => {
    const [first, second] = stores;
    if (schema) await first?.database.query(`DROP SCHEMA ${schema} CASCADE`);
    await first?.close();
    if (second !== first) await second?.close();
  });
  afterEach(() => {
    for (const f of faulty) f.reset();
  });

  it("the OpenAPI document declares the Idempotency-Key header on the three and Idempotency-Replayed on their 202", () => {
    const doc = (apis[0] as (typeof apis)[number]).openapi() as unknown as {
      paths: Record<
        string,
        {
          post: {
            parameters?: { name: string; in: string; required?: boolean }[];
            responses: Record<string, { headers?: Record<string, unknown>; description: string }>;
          };
        }
      >;
    };
    for (const action of ["hold", "withdraw", "payments"]) {
      const post = doc.paths[`/orders/{orderId}/${action}`]?.post;
      expect(
        post?.parameters?.filter((p) => p.in === "header").map((p) => [p.name, p.required ?? false]),
        action,
      ).toEqual([["Idempotency-Key", false]]);
      expect(Object.keys(post?.responses["202"]?.headers ?? {})).toContain("Idempotency-Replayed");
      expect(post?.responses["409"]?.description).toContain("`idempotency_conflict`");
      expect(post?.responses["409"]?.description).toContain("`idempotency_in_progress`");
    }
  });

  describe.each(transports)("over $name", (transport) => {
    // One running host per API; request i goes to API i % 2 (on PGlite both are one store).
    let hosts: RunningTransport[];
    let live: string;
    let n = 0;
    const org = `control idempotency ${target.name} ${transport.name}`;
    const request = (i: number, path: string, init: RequestInit) =>
      (hosts[i % hosts.length] as RunningTransport).request(path, init);
    const keyed = (key: string, body: unknown, idempotencyKey: string) =>
      json(key, body, { "idempotency-key": idempotencyKey });
    // A fresh order on a case of its own, so no test sees another's tasks.
    const freshOrder = async () => {
      const res = await request(
        0,
        "/orders",
        json(live, orderBody({ debtors: [business(`CI-${transport.name.replace(/\W/g, "")}-${++n}`)] })),
      );
      expect(res.status).toBe(201);
      const order = (await res.json()) as { id: string; case: { case_number: string } };
      return { id: order.id, caseNumber: order.case.case_number };
    };
    const tasksOn = async (caseNumber: string) =>
      ((await cases.getCase({ caseNumber }))?.tasks ?? []).map((x) => [x.kind, x.amountCents]);
    const actionsOf = async (orderId: string) => {
      const res = await request(0, `/orders/${orderId}`, bearer(live));
      expect(res.status).toBe(200);
      return ((await res.json()) as { actions: { action: string }[] }).actions.map((a) => a.action);
    };

    beforeAll(async () => {
      hosts = [];
      for (const api of new Set(apis)) hosts.push(await transport.start(api));
      live = (
        await issueApiKey(stores[0] as SqlStore, {
          organisation: org,
          mode: "live",
          perMinute: 10_000,
          perDay: 10_000,
        })
      ).key;
    });
    afterAll(async () => {
      for (const host of hosts) await host.close();
    });

    it("a hold sent twice with one key: the second is the first answer with Idempotency-Replayed, and one task", async () => {
      const order = await freshOrder();
      const k = `hold-twice-${transport.name}`;
      seconds++;
      const first = await request(0, `/orders/${order.id}/hold`, keyed(live, { reason: "Regeling" }, k));
      expect(first.status).toBe(202);
      expect(first.headers.get("idempotency-replayed")).toBeNull();
      const firstBody = await first.text();
      check("/orders/{orderId}/hold", "post", 202, JSON.parse(firstBody));
      expect(JSON.parse(firstBody)).toEqual({
        id: order.id,
        object: "order_action",
        action: "hold",
        status: "requested",
        case: { case_number: order.caseNumber },
        message:
          "Het verzoek om de incasso te pauzeren is als taak in het dossier gezet voor een behandelaar.",
        created_at: now().toISOString(),
      });
      seconds++;
      // Key order and spacing do not count; the second request goes to the other API.
      const again = await request(1, `/orders/${order.id}/hold`, keyed(live, '{ "reason" : "Regeling" }', k));
      expect(again.status).toBe(202);
      expect(again.headers.get("idempotency-replayed")).toBe("true");
      expect(first.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(again.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(await again.text()).toBe(firstBody);
      expect(await tasksOn(order.caseNumber)).toEqual([["hold", null]]);
      expect(await actionsOf(order.id)).toEqual(["hold"]);
      expect(
        await count(stores[0] as SqlStore, "SELECT count(*) AS n FROM order_actions WHERE order_id = $1", [
          order.id,
        ]),
      ).toBe(1);
    });

    it("the same key with another body, on another order or for another control request → 409 idempotency_conflict", async () => {
      const order = await freshOrder();
      const other = await freshOrder();
      const k = `hold-conflict-${transport.name}`;
      const first = await request(0, `/orders/${order.id}/hold`, keyed(live, { reason: "Eerste" }, k));
      expect(first.status).toBe(202);
      const attempts: [string, unknown][] = [
        [`/orders/${order.id}/hold`, { reason: "Tweede" }],
        [`/orders/${other.id}/hold`, { reason: "Eerste" }],
        [`/orders/${order.id}/withdraw`, { reason: "Eerste" }],
      ];
      for (const [i, [path, body]] of attempts.entries()) {
        const res = await request(i, path, keyed(live, body, k));
        expect(res.status, path).toBe(409);
        expect(res.headers.get("content-type")).toBe("application/problem+json");
        expect(res.headers.get("idempotency-replayed")).toBeNull();
        const problem = await res.json();
        check("/orders/{orderId}/hold", "post", 409, problem);
        expect(problem).toMatchObject({
          status: 409,
          code: "idempotency_conflict",
          detail: `The Idempotency-Key "${k}" was used before for a request with different content; use a new key for a new request.`,
        });
      }
      expect(await tasksOn(order.caseNumber)).toEqual([["hold", null]]);
      expect(await tasksOn(other.caseNumber)).toEqual([]);
      expect(await actionsOf(order.id)).toEqual(["hold"]);
      expect(await actionsOf(other.id)).toEqual([]);
    });

    it("withdraw: no body and then `{}` under one key are one request; a reason changes it", async () => {
      const order = await freshOrder();
      const k = `withdraw-${transport.name}`;
      const first = await request(0, `/orders/${order.id}/withdraw`, {
        method: "POST",
        headers: { authorization: `Bearer ${live}`, "idempotency-key": k },
      });
      expect(first.status).toBe(202);
      const firstBody = await first.text();
      expect(JSON.parse(firstBody)).toMatchObject({ action: "withdraw", status: "requested" });
      const again = await request(1, `/orders/${order.id}/withdraw`, keyed(live, {}, k));
      expect(again.status).toBe(202);
      expect(again.headers.get("idempotency-replayed")).toBe("true");
      expect(await again.text()).toBe(firstBody);
      const changed = await request(0, `/orders/${order.id}/withdraw`, keyed(live, { reason: "Toch" }, k));
      expect(changed.status).toBe(409);
      expect(await changed.json()).toMatchObject({ code: "idempotency_conflict" });
      expect(await tasksOn(order.caseNumber)).toEqual([["withdraw", null]]);
      expect(await actionsOf(order.id)).toEqual(["withdraw"]);
    });

    it("payments: a report sent twice with one key is booked once; another amount under the key is 409", async () => {
      const order = await freshOrder();
      const k = `payment-${transport.name}`;
      const report = { amount_cents: 2500, payment_date: "2026-11-30" };
      const first = await request(0, `/orders/${order.id}/payments`, keyed(live, report, k));
      expect(first.status).toBe(202);
      const firstBody = await first.text();
      check("/orders/{orderId}/payments", "post", 202, JSON.parse(firstBody));
      expect(JSON.parse(firstBody)).toMatchObject({ amount_cents: 2500, payment_date: "2026-11-30" });
      const again = await request(1, `/orders/${order.id}/payments`, keyed(live, report, k));
      expect(again.status).toBe(202);
      expect(again.headers.get("idempotency-replayed")).toBe("true");
      expect(await again.text()).toBe(firstBody);
      const other = await request(
        0,
        `/orders/${order.id}/payments`,
        keyed(live, { ...report, amount_cents: 2600 }, k),
      );
      expect(other.status).toBe(409);
      expect(await other.json()).toMatchObject({ code: "idempotency_conflict" });
      expect(await tasksOn(order.caseNumber)).toEqual([["payments", 2500]]);
      expect(await actionsOf(order.id)).toEqual(["payments"]);
    });

    it("without a key every request is a request of its own, as before", async () => {
      const order = await freshOrder();
      for (const i of [0, 1]) {
        const res = await request(i, `/orders/${order.id}/hold`, json(live, { reason: "Zonder sleutel" }));
        expect(res.status).toBe(202);
      }
      expect(await tasksOn(order.caseNumber)).toEqual([
        ["hold", null],
        ["hold", null],
      ]);
    });

    it("five identical holds at once with one key: one task; the others 409 idempotency_in_progress, then a replay", async () => {
      const order = await freshOrder();
      const k = `concurrent-${transport.name}`;
      const send = (i: number) =>
        request(i, `/orders/${order.id}/hold`, keyed(live, { reason: "Tegelijk" }, k));
      gate.close();
      let settled = 0;
      const responses = await Promise.all(
        [0, 1, 2, 3, 4].map((i) =>
          send(i).then((res) => {
            // The four duplicates are answered while the first waits in its task; then it goes on.
            if (++settled === 4) gate.open();
            return res;
          }),
        ),
      );
      gate.open();
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([202, 409, 409, 409, 409]);
      for (const res of responses.filter((r) => r.status === 409)) {
        expect(res.headers.get("retry-after")).toBe("5");
        const problem = await res.json();
        check("/orders/{orderId}/hold", "post", 409, problem);
        expect(problem).toMatchObject({ code: "idempotency_in_progress" });
      }
      const first = responses.find((r) => r.status === 202) as Response;
      const firstBody = await first.text();
      const after = await send(1);
      expect(after.status).toBe(202);
      expect(after.headers.get("idempotency-replayed")).toBe("true");
      expect(await after.text()).toBe(firstBody);
      expect(await tasksOn(order.caseNumber)).toEqual([["hold", null]]);
      expect(await actionsOf(order.id)).toEqual(["hold"]);
    });

    it("a lost answer of the case system (502): the retry with the key places no second task", async () => {
      const order = await freshOrder();
      const k = `lost-${transport.name}`;
      for (const f of faulty) f.loseAnswers("addTask", true);
      const lost = await request(0, `/orders/${order.id}/hold`, keyed(live, {}, k));
      expect(lost.status).toBe(502);
      expect(await lost.json()).toMatchObject({ code: "upstream_error" });
      for (const f of faulty) f.loseAnswers("addTask", false);
      // The task is on the case, the action is not stored: a 5xx is not kept, so the retry runs
      // again, under the task id derived from the key.
      expect(await tasksOn(order.caseNumber)).toEqual([["hold", null]]);
      expect(await actionsOf(order.id)).toEqual([]);
      const retry = await request(1, `/orders/${order.id}/hold`, keyed(live, {}, k));
      expect(retry.status).toBe(202);
      expect(await retry.json()).toMatchObject({ action: "hold", status: "requested" });
      expect(await tasksOn(order.caseNumber)).toEqual([["hold", null]]);
      expect(await actionsOf(order.id)).toEqual(["hold"]);
    });

    it("a record lost after the action was stored: the retry finds the action, answers it replayed, and places no task", async () => {
      const order = await freshOrder();
      const k = `record-lost-${transport.name}`;
      const first = await request(0, `/orders/${order.id}/payments`, keyed(live, { amount_cents: 700 }, k));
      expect(first.status).toBe(202);
      const firstBody = await first.text();
      // As when the process stopped between storing the action and keeping the response.
      await (stores[0] as SqlStore).database.query("DELETE FROM idempotency_keys WHERE key = $1", [k]);
      seconds++;
      const retry = await request(1, `/orders/${order.id}/payments`, keyed(live, { amount_cents: 700 }, k));
      expect(retry.status).toBe(202);
      expect(retry.headers.get("idempotency-replayed")).toBe("true");
      expect(await retry.text()).toBe(firstBody);
      expect(await tasksOn(order.caseNumber)).toEqual([["payments", 700]]);
      expect(await actionsOf(order.id)).toEqual(["payments"]);
    });
  });
});
