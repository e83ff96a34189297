import { createCaseReporter } from "@incasso/case-system";
import { issueApiKey } from "@incasso/core";
import { openStore, type SqlStore } from "@incasso/store-sql";
import { fixtureApi, type RunningTransport, responseValidator, transports } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, business, json, orderBody } from "./orders-fixtures.js";
import { ownCaseSystemModule, startOwnCaseService } from "./own-case-service.js";

// The order endpoints over every transport with the case system of examples/own-case-system: the
// agency's case service as its own process, reached over HTTP, and its change feed reporting back
// through createCaseReporter. The API's store has no built-in case tables (openStore alone).
let store: SqlStore;
let service: Awaited<ReturnType<typeof startOwnCaseService>>;
let feed: { pump(): Promise<number>; stop(): Promise<void> };
let api: ReturnType<typeof fixtureApi>;
let check: ReturnType<typeof responseValidator>;
beforeAll(async () => {
  service = await startOwnCaseService();
  store = await openStore();
  const { createHttpCaseSystem, startCaseFeed } = await ownCaseSystemModule();
  feed = startCaseFeed({ baseUrl: service.url, reporter: createCaseReporter({ store }), intervalMs: 100 });
  api = fixtureApi({
    store,
    caseSystem: createHttpCaseSystem({ baseUrl: service.url, timeoutMs: 2000, retries: 1, retryDelayMs: 10 }),
    pdfEngine: undefined,
    logger: { info() {}, warn() {}, error() {} },
  });
  check = responseValidator(api.openapi());
});
afterAll(async () => {
  await feed?.stop();
  await store?.close();
  await service?.stop();
});

const handle = async (path: string, body: unknown, method = "POST") => {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBeLessThan(300);
};

describe.each(transports)("orders on the own case system over $name", (transport) => {
  let t: RunningTransport;
  let live: string;
  let n = 0;
  const customer = () => `OWN-${transport.name.replace(/[^a-z]/g, "")}-${++n}`;
  beforeAll(async () => {
    t = await transport.start(api);
    live = (
      await issueApiKey(store, { organisation: `own ${transport.name}`, mode: "live", perMinute: 1000 })
    ).key;
  });
  afterAll(() => t.close());

  it("POST /orders places the order in the case service; a follow-up joins its case", async () => {
    const number = customer();
    const res = await t.request("/orders", json(live, orderBody({ debtors: [business(number)] })));
    expect(res.status).toBe(201);
    const first = await res.json();
    check("/orders", "POST", 201, first);
    expect(first.case).toEqual({ case_number: expect.stringMatching(/^OWN-\d{6}$/), new: true });
    expect(first.warnings).toEqual([]);

    const follow = await t.request("/orders", json(live, orderBody({ debtors: [business(number)] })));
    expect(follow.status).toBe(201);
    const second = await follow.json();
    expect(second.case).toEqual({ case_number: first.case.case_number, new: false });
    expect(second.warnings.map((w: { code: string }) => w.code)).toEqual(["attached_to_existing_case"]);

    const cases = (await (await fetch(`${service.url}/cases`)).json()) as {
      cases: { case_number: string; orders: string[]; invoice_count: number }[];
    };
    expect(cases.cases.find((c) => c.case_number === first.case.case_number)).toMatchObject({
      orders: [first.id, second.id],
      invoice_count: 6,
    });
  });

  it("GET /orders/{id} reads the live state from the service; a control request's outcome comes back", async () => {
    const order = await (
      await t.request("/orders", json(live, orderBody({ debtors: [business(customer())] })))
    ).json();
    const read = await t.request(`/orders/${order.id}`, bearer(live));
    expect(read.status).toBe(200);
    const fresh = await read.json();
    check("/orders/{orderId}", "GET", 200, fresh);
    expect(fresh.case).toEqual({
      case_number: order.case.case_number,
      new: true,
      status: "Nieuw",
      open: true,
    });

    const hold = await t.request(`/orders/${order.id}/hold`, json(live, { reason: "Debiteur belt terug." }));
    expect(hold.status).toBe(202);
    check("/orders/{orderId}/hold", "POST", 202, await hold.json());
    await handle(`/cases/${order.case.case_number}/status`, { status: "Aangehouden" });
    const tasks = (await (await fetch(`${service.url}/tasks`)).json()) as {
      tasks: { task_id: string; order_id: string; action: string }[];
    };
    const task = tasks.tasks.find((x) => x.order_id === order.id && x.action === "hold");
    expect(task).toBeDefined();
    await handle(`/tasks/${task?.task_id}/resolve`, { outcome: "done", note: "Gepauzeerd." });
    await feed.pump();
    const after = await (await t.request(`/orders/${order.id}`, bearer(live))).json();
    expect(after.case).toMatchObject({ status: "Aangehouden", open: true });
    expect(after.actions.map((a: { action: string; status: string }) => [a.action, a.status])).toEqual([
      ["hold", "done"],
    ]);
  });

  it("a case service that keeps failing: 502 upstream_error as problem+json, and no order", async () => {
    await handle("/faults", { fault: "placement", times: 2 });
    const res = await t.request(
      "/orders",
      json(live, orderBody({ debtors: [business(customer())], reference: "R-DOWN" }), {
        "idempotency-key": `own-down-${transport.name}`,
      }),
    );
    expect(res.status).toBe(502);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const problem = await res.json();
    check("/orders", "POST", 502, problem);
    expect(problem).toMatchObject({ status: 502, code: "upstream_error" });
    const list = await (await t.request("/orders?reference=R-DOWN", bearer(live))).json();
    expect(list.data).toEqual([]);
  });
});
