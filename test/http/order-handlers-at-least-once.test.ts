import { randomBytes } from "node:crypto";
import { createBuiltInCaseSystem, openCaseSystemStore } from "@incasso/case-system";
import {
  type ActionRequestedEvent,
  createOrderEngine,
  HANDLER_GRACE_MS,
  issueApiKey,
  type OrderEngine,
  type OrderHooks,
  type OrderPlacedEvent,
  type Principal,
  principalOfKey,
  requestOrderAction,
  submitOrder,
  sweepPendingHandlers,
} from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { orderBody } from "./orders-fixtures.js";

// The host's after-handlers run at least once after the order (or control request) is stored,
// across a crash (decision orders-host-hooks): the row is written with its pending handler run,
// which is cleared once the handlers settled; a process that stopped first leaves it, and the
// handler sweeper of the next process runs the handlers again with `replayed: true`, once. The
// crash is a process whose handlers never settle (it stopped while they ran); the sweeper is the
// next process, with the same handlers that now finish. On PGlite, and on PostgreSQL when
// TEST_DATABASE_URL is set.
const url = process.env.TEST_DATABASE_URL;
const targets: { name: string; open: () => Promise<{ store: SqlStore; schema?: string }> }[] = [
  { name: "PGlite", open: async () => ({ store: await openCaseSystemStore() }) },
];
if (url) {
  targets.push({
    name: "PostgreSQL",
    open: async () => {
      const schema = `handlers_${randomBytes(6).toString("hex")}`;
      return { store: await openCaseSystemStore({ databaseUrl: url, schema }), schema };
    },
  });
}

const quiet = { warn() {} };
/** A clock past the grace period of every run written so far. */
const late = () => new Date(Date.now() + HANDLER_GRACE_MS + 1000);

describe.each(targets)("after-handlers at least once on $name", (target) => {
  let store: SqlStore;
  let schema: string | undefined;
  let principal: Principal;
  /** The process that stops before its handlers finish: they never settle. */
  let crashing: OrderEngine;
  /** A process whose handlers finish. */
  let healthy: OrderEngine;
  const placed: OrderPlacedEvent[] = [];
  const requested: ActionRequestedEvent[] = [];
  /** The handlers as the next process has them. */
  const hooks: OrderHooks = {
    orderPlaced: [(event) => void placed.push(event)],
    actionRequested: [(event) => void requested.push(event)],
  };
  const never = () => new Promise<void>(() => {});
  const pendingRuns = async (id: string) =>
    (
      await store.database.query<{ n: number | string }>(
        "SELECT count(*) AS n FROM pending_handlers WHERE id = $1",
        [id],
      )
    ).rows.map((r) => Number(r.n))[0];

  beforeAll(async () => {
    ({ store, schema } = await target.open());
    const key = await issueApiKey(store, {
      organisation: `Handlers ${target.name}`,
      mode: "live",
      perMinute: 1000,
      perDay: 10_000,
    });
    principal = principalOfKey(key.record);
    const caseSystem = createBuiltInCaseSystem({ store });
    crashing = createOrderEngine({
      store,
      caseSystem,
      hooks: { orderPlaced: [never], actionRequested: [never] },
      logger: quiet,
    });
    healthy = createOrderEngine({ store, caseSystem, hooks, logger: quiet });
  });
  afterAll(async () => {
    if (schema) await store.database.query(`DROP SCHEMA ${schema} CASCADE`);
    await store.close();
  });

  it("an order whose handlers never finished is run by the sweeper after the grace period, replayed, once", async () => {
    const order = await submitOrder(crashing, principal, orderBody({ reference: "CRASH-1" }));
    expect(await pendingRuns(order.id)).toBe(1);
    // Within the grace period the process that stored it may still be running them.
    expect(await sweepPendingHandlers({ store, hooks, logger: quiet })).toEqual({ ran: 0, gone: 0 });
    expect(placed).toEqual([]);

    expect(await sweepPendingHandlers({ store, hooks, logger: quiet, now: late })).toEqual({
      ran: 1,
      gone: 0,
    });
    expect(placed).toEqual([{ order, principal, replayed: true }]);
    expect(await pendingRuns(order.id)).toBe(0);
    // Run once: a later sweep finds nothing.
    expect(await sweepPendingHandlers({ store, hooks, logger: quiet, now: late })).toEqual({
      ran: 0,
      gone: 0,
    });
    expect(placed).toHaveLength(1);
  });

  it("a control request whose handlers never finished is run by the sweeper, replayed, once", async () => {
    const order = await submitOrder(healthy, principal, orderBody({ reference: "CRASH-2" }));
    await vi.waitFor(async () => expect(await pendingRuns(order.id)).toBe(0));
    placed.length = 0;
    const action = await requestOrderAction(crashing, principal, order.id, "hold", { reason: "Belt terug" });
    const actionId = (await store.orders.listActions(principal.organisationId, order.id))[0]?.id as string;
    expect(actionId).toMatch(/^act_[0-9a-f]{16}$/);
    expect(await pendingRuns(actionId)).toBe(1);

    expect(await sweepPendingHandlers({ store, hooks, logger: quiet, now: late })).toEqual({
      ran: 1,
      gone: 0,
    });
    expect(requested).toEqual([{ action, orderId: order.id, principal, replayed: true }]);
    expect(placed).toEqual([]);
    expect(await sweepPendingHandlers({ store, hooks, logger: quiet, now: late })).toEqual({
      ran: 0,
      gone: 0,
    });
    expect(requested).toHaveLength(1);
    requested.length = 0;
  });

  it("handlers that finished clear their run, and the sweeper does not run them again", async () => {
    placed.length = 0;
    const order = await submitOrder(healthy, principal, orderBody({ reference: "FINE-1" }));
    await vi.waitFor(() => expect(placed).toHaveLength(1));
    expect(placed[0]).toEqual({ order, principal, replayed: false });
    await vi.waitFor(async () => expect(await pendingRuns(order.id)).toBe(0));
    const action = await requestOrderAction(healthy, principal, order.id, "payments", { amount_cents: 5000 });
    await vi.waitFor(() => expect(requested).toHaveLength(1));
    expect(requested[0]).toEqual({ action, orderId: order.id, principal, replayed: false });
    const actionId = (await store.orders.listActions(principal.organisationId, order.id))[0]?.id as string;
    await vi.waitFor(async () => expect(await pendingRuns(actionId)).toBe(0));

    expect(await sweepPendingHandlers({ store, hooks, logger: quiet, now: late })).toEqual({
      ran: 0,
      gone: 0,
    });
    expect(placed).toHaveLength(1);
    expect(requested).toHaveLength(1);
    requested.length = 0;
  });

  it("two sweepers at once run each pending order once", async () => {
    placed.length = 0;
    const orders = [];
    for (const n of [1, 2, 3]) {
      orders.push(await submitOrder(crashing, principal, orderBody({ reference: `CRASH-3${n}` })));
    }
    const [a, b] = await Promise.all([
      sweepPendingHandlers({ store, hooks, logger: quiet, now: late }),
      sweepPendingHandlers({ store, hooks, logger: quiet, now: late }),
    ]);
    expect((a?.ran ?? 0) + (b?.ran ?? 0)).toBe(3);
    expect(placed.map((e) => e.order.id).sort()).toEqual(orders.map((o) => o.id).sort());
    expect(placed.every((e) => e.replayed)).toBe(true);
  });

  it("a sweep that is stopped leaves the run of a hung handler claimed, and a later sweep runs it", async () => {
    const order = await submitOrder(crashing, principal, orderBody({ reference: "CRASH-5" }));
    let hung!: () => void;
    const started = new Promise<void>((resolve) => {
      hung = resolve;
    });
    const stopping = new AbortController();
    const sweep = sweepPendingHandlers({
      store,
      hooks: {
        orderPlaced: [
          () => {
            hung();
            return new Promise<void>(() => {});
          },
        ],
      },
      logger: quiet,
      now: late,
      signal: stopping.signal,
    });
    await started;
    stopping.abort();
    // The sweep ends at once instead of waiting out the grace period for the hung handler.
    expect(await sweep).toEqual({ ran: 1, gone: 0 });
    expect(await pendingRuns(order.id)).toBe(1);
    // Its claim is taken again once it is older than the grace period.
    placed.length = 0;
    const later = () => new Date(late().getTime() + HANDLER_GRACE_MS + 1000);
    expect(await sweepPendingHandlers({ store, hooks, logger: quiet, now: later })).toEqual({
      ran: 1,
      gone: 0,
    });
    expect(placed.map((e) => [e.order.id, e.replayed])).toEqual([[order.id, true]]);
    expect(await pendingRuns(order.id)).toBe(0);
  });

  it("a process without handlers neither writes a run nor sweeps one", async () => {
    const plain = createOrderEngine({ store, caseSystem: createBuiltInCaseSystem({ store }), logger: quiet });
    const order = await submitOrder(plain, principal, orderBody({ reference: "PLAIN-1" }));
    expect(await pendingRuns(order.id)).toBe(0);
    const stuck = await submitOrder(crashing, principal, orderBody({ reference: "CRASH-4" }));
    expect(await sweepPendingHandlers({ store, hooks: [], logger: quiet, now: late })).toEqual({
      ran: 0,
      gone: 0,
    });
    // Left for a process that has the handlers.
    expect(await pendingRuns(stuck.id)).toBe(1);
    placed.length = 0;
    expect(await sweepPendingHandlers({ store, hooks, logger: quiet, now: late })).toEqual({
      ran: 1,
      gone: 0,
    });
    expect(placed.map((e) => e.order.id)).toEqual([stuck.id]);
  });
});
