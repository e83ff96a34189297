import { randomBytes } from "node:crypto";
import { isCoreError, isWebhookError, newId } from "@incasso/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, repositories, type SqlStore } from "../index.js";

const T0 = new Date("2026-11-21T10:00:00.000Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const DATA = {
  order_id: "ord_0123456789abcdef",
  case_number: "2026-000123",
  reference: "INV-42",
  case_event: "case_payments",
};

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return isWebhookError(error) || isCoreError(error) ? error.code : `unexpected: ${String(error)}`;
  }
}

function describeOutbox(
  name: string,
  open: () => Promise<SqlStore>,
  cleanup?: (s: SqlStore) => Promise<void>,
) {
  describe(`webhook outbox on ${name}`, () => {
    let store: SqlStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await cleanup?.(store);
      await store.close();
    });

    async function organisation(withEndpoint: boolean): Promise<string> {
      const { organisation } = await store.organisations.ensure({
        id: newId("org"),
        name: `Outbox ${randomBytes(4).toString("hex")}`,
        creditorName: "Creditor BV",
        now: T0,
      });
      if (withEndpoint) {
        await store.webhookEndpoints.set({
          organisationId: organisation.id,
          url: "https://client.example/hook",
          secret: "whsec_test_secret_value",
          now: T0,
        });
      }
      return organisation.id;
    }

    it("stores the exact body, due at once, and the endpoint upsert keeps its creation time", async () => {
      const organisationId = await organisation(true);
      const e = await store.outbox.enqueue({
        organisationId,
        type: "payment.received",
        data: DATA,
        id: "evt_00000000000000a1",
        now: T0,
      });
      expect(e.payload).toBe(
        '{"id":"evt_00000000000000a1","object":"event","type":"payment.received","created_at":"2026-11-21T10:00:00.000Z","data":{"order_id":"ord_0123456789abcdef","case_number":"2026-000123","reference":"INV-42","case_event":"case_payments"}}',
      );
      expect(e).toMatchObject({ state: "pending", attempts: 0, roundStart: 0, organisationId });
      expect(e.nextAttemptAt?.toISOString()).toBe(T0.toISOString());
      const again = await store.webhookEndpoints.set({
        organisationId,
        url: "https://client.example/other",
        secret: "whsec_second_secret_value",
        now: at(60),
      });
      expect(again.createdAt.toISOString()).toBe(T0.toISOString());
      expect(again.updatedAt.toISOString()).toBe(at(60).toISOString());
      expect((await store.webhookEndpoints.find(organisationId))?.url).toBe("https://client.example/other");
    });

    it("records an event of an organisation without an endpoint as no_endpoint, never due", async () => {
      const organisationId = await organisation(false);
      const e = await store.outbox.enqueue({ organisationId, type: "case.updated", data: DATA, now: T0 });
      expect(e.state).toBe("no_endpoint");
      expect(e.nextAttemptAt).toBeNull();
      expect(e.id).toMatch(/^evt_[0-9a-f]{16}$/);
      const claimed = await store.outbox.claim({
        owner: "d1",
        now: at(10_000),
        leaseSeconds: 60,
        limit: 10,
        maxAttempts: 6,
        eventId: e.id,
      });
      expect(claimed).toEqual([]);
    });

    it("writes nothing when the transaction that enqueued rolls back", async () => {
      const organisationId = await organisation(true);
      const id = newId("evt");
      await expect(
        store.transaction(async (tx) => {
          await tx.outbox.enqueue({ organisationId, type: "case.closed", data: DATA, id, now: T0 });
          throw new Error("the case change failed");
        }),
      ).rejects.toThrow("the case change failed");
      expect(await store.outbox.findById(id)).toBeUndefined();
      await store.transaction((tx) =>
        tx.outbox.enqueue({ organisationId, type: "case.closed", data: DATA, id, now: T0 }),
      );
      expect((await store.outbox.findById(id))?.state).toBe("pending");
    });

    it("refuses an invalid event and an unknown organisation with stable codes", async () => {
      const organisationId = await organisation(true);
      expect(
        await codeOf(store.outbox.enqueue({ organisationId, type: "case.reopened" as never, data: DATA })),
      ).toBe("invalid_webhook_event");
      expect(
        await codeOf(
          store.outbox.enqueue({ organisationId, type: "case.updated", data: { ...DATA, order_id: "123" } }),
        ),
      ).toBe("invalid_webhook_event");
      expect(
        await codeOf(
          store.outbox.enqueue({ organisationId: "org_ffffffffffffffff", type: "case.updated", data: DATA }),
        ),
      ).toBe("organisation_not_found");
    });

    it("keeps the order of events enqueued one after another, even within one millisecond", async () => {
      const organisationId = await organisation(true);
      const ids = await store.database.transaction(async (tx) => {
        const repos = repositories(tx);
        const out: string[] = [];
        for (let i = 0; i < 30; i++)
          out.push((await repos.outbox.enqueue({ organisationId, type: "case.updated", data: DATA })).id);
        return out;
      });
      // The dispatcher's order (next_attempt_at, then id) and the time order are the enqueue order.
      const { rows } = await store.database.query<{ id: string; created_at: Date | string }>(
        "SELECT id, created_at FROM webhook_events WHERE organisation_id = $1 ORDER BY next_attempt_at, id",
        [organisationId],
      );
      expect(rows.map((r) => r.id)).toEqual(ids);
      const times = rows.map((r) => new Date(r.created_at).getTime());
      for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1] as number);
    });

    it("claims a due event once, hands an expired claim to another dispatcher as the next attempt", async () => {
      const organisationId = await organisation(true);
      const e = await store.outbox.enqueue({
        organisationId,
        type: "case.updated",
        data: DATA,
        now: at(100),
      });
      const claim = (owner: string, seconds: number) =>
        store.outbox.claim({
          owner,
          now: at(seconds),
          leaseSeconds: 60,
          limit: 10,
          maxAttempts: 6,
          eventId: e.id,
        });
      expect(await claim("early", 99)).toEqual([]);
      const [first] = await claim("d1", 100);
      expect(first).toMatchObject({
        attempt: 1,
        attemptInRound: 1,
        endpoint: { url: "https://client.example/hook" },
      });
      expect(first?.event.state).toBe("delivering");
      expect(first?.event.leaseExpiresAt?.toISOString()).toBe(at(160).toISOString());
      expect(await claim("d2", 159)).toEqual([]);
      const [second] = await claim("d2", 160);
      expect(second).toMatchObject({ attempt: 2, event: { leaseOwner: "d2" } });
      // The vanished dispatcher's result can no longer move the event on.
      const late = await store.outbox.finish({
        eventId: e.id,
        attempt: 1,
        owner: "d1",
        now: at(170),
        outcome: "delivered",
        statusCode: 200,
        durationMs: 70_000,
        error: null,
        url: "https://client.example/hook",
        nextAttemptAt: null,
      });
      expect(late).toBe(false);
      const ok = await store.outbox.finish({
        eventId: e.id,
        attempt: 2,
        owner: "d2",
        now: at(171),
        outcome: "delivered",
        statusCode: 204,
        durationMs: 12,
        error: null,
        url: "https://client.example/hook",
        nextAttemptAt: null,
      });
      expect(ok).toBe(true);
      const done = await store.outbox.findById(e.id);
      expect(done).toMatchObject({ state: "delivered", attempts: 2, lastStatus: 204, leaseOwner: null });
      expect(done?.deliveredAt?.toISOString()).toBe(at(171).toISOString());
      const attempts = await store.outbox.attempts(e.id);
      expect(attempts.map((a) => [a.attempt, a.owner, a.outcome, a.statusCode])).toEqual([
        [1, "d1", "delivered", 200],
        [2, "d2", "delivered", 204],
      ]);
    });

    it("schedules the next attempt on failure, fails after the last, and redelivers with a new round", async () => {
      const organisationId = await organisation(true);
      const e = await store.outbox.enqueue({ organisationId, type: "invoice.updated", data: DATA, now: T0 });
      let now = 0;
      for (let n = 1; n <= 3; n++) {
        const [c] = await store.outbox.claim({
          owner: "d",
          now: at(now),
          leaseSeconds: 60,
          limit: 5,
          maxAttempts: 3,
          eventId: e.id,
        });
        expect(c?.attempt).toBe(n);
        const next = n < 3 ? at(now + 30) : null;
        await store.outbox.finish({
          eventId: e.id,
          attempt: n,
          owner: "d",
          now: at(now + 1),
          outcome: "failed",
          statusCode: 503,
          durationMs: 5,
          error: "HTTP 503",
          url: "https://client.example/hook",
          nextAttemptAt: next,
        });
        now += 30;
      }
      const failed = await store.outbox.findById(e.id);
      expect(failed).toMatchObject({
        state: "failed",
        attempts: 3,
        lastStatus: 503,
        lastError: "HTTP 503",
        nextAttemptAt: null,
      });
      expect(
        (await store.outbox.list({ organisationId, state: "failed", limit: 10 })).map((x) => x.id),
      ).toEqual([e.id]);
      const again = await store.outbox.redeliver(e.id, at(500));
      expect(again).toMatchObject({ state: "pending", attempts: 3, roundStart: 3, failedAt: null });
      const [c] = await store.outbox.claim({
        owner: "d",
        now: at(500),
        leaseSeconds: 60,
        limit: 5,
        maxAttempts: 3,
        eventId: e.id,
      });
      expect(c).toMatchObject({ attempt: 4, attemptInRound: 1 });
      expect(await codeOf(store.outbox.redeliver(e.id, at(501)))).toBe("delivery_in_progress");
      expect(await codeOf(store.outbox.redeliver("evt_ffffffffffffffff", at(501)))).toBe(
        "webhook_event_not_found",
      );
      const schedule = (await store.outbox.attempts(e.id)).map((a) => a.nextAttemptAt?.toISOString() ?? null);
      expect(schedule).toEqual([at(30).toISOString(), at(60).toISOString(), null, null]);
    });

    it("fails an event whose dispatcher vanished during the last attempt of its round", async () => {
      const organisationId = await organisation(true);
      const e = await store.outbox.enqueue({ organisationId, type: "case.updated", data: DATA, now: T0 });
      await store.outbox.claim({
        owner: "gone",
        now: T0,
        leaseSeconds: 60,
        limit: 5,
        maxAttempts: 1,
        eventId: e.id,
      });
      expect(
        await store.outbox.claim({
          owner: "d",
          now: at(61),
          leaseSeconds: 60,
          limit: 5,
          maxAttempts: 1,
          eventId: e.id,
        }),
      ).toEqual([]);
      expect(await store.outbox.findById(e.id)).toMatchObject({ state: "failed", attempts: 1 });
      expect((await store.outbox.attempts(e.id))[0]?.outcome).toBe("lease_expired");
    });

    it("never hands one attempt to two dispatchers claiming at the same time", async () => {
      const organisationId = await organisation(true);
      const ids = new Set<string>();
      for (let i = 0; i < 40; i++) {
        ids.add(
          (await store.outbox.enqueue({ organisationId, type: "case.updated", data: DATA, now: at(-3600) }))
            .id,
        );
      }
      const claims = await Promise.all(
        ["a", "b", "c", "d"].map((owner) =>
          store.outbox.claim({ owner, now: at(-3599), leaseSeconds: 60, limit: 15, maxAttempts: 6 }),
        ),
      );
      const mine = claims.flat().filter((c) => ids.has(c.event.id));
      expect(mine.length).toBe(40);
      expect(new Set(mine.map((c) => c.event.id)).size).toBe(40);
      expect(mine.every((c) => c.attempt === 1)).toBe(true);
    });
  });
}

describeOutbox("PGlite", () => openStore());

const url = process.env.TEST_DATABASE_URL;
if (url) {
  const schema = `outbox_${randomBytes(6).toString("hex")}`;
  describeOutbox(
    "PostgreSQL",
    () => openStore({ databaseUrl: url, schema }),
    async (store) => {
      await store.database.query(`DROP SCHEMA ${schema} CASCADE`);
    },
  );
}
