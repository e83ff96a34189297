// Through PgBouncer in transaction pooling mode (issue 29): the order path (30 orders from 6
// clients at once, every one 201 with its order row and its case, pairs of orders on one customer
// number merged under the placement's advisory lock), the key path, the webhook outbox (each
// merge's invoice.updated delivered) and /readyz, all through a pooler that hands each
// transaction whichever server connection is free (decision store-connection-poolers). Skipped
// without TEST_DATABASE_URL or without pgbouncer; in CI with a database, a missing pgbouncer fails.
import { randomBytes } from "node:crypto";
import { createIncasso } from "@incasso/app";
import { listen } from "@incasso/server/node";
import { openPostgresDatabase, openStore, type SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { business, orderBody } from "../http/orders-fixtures.js";
import { startReceiver, waitFor } from "../webhooks/receiver.js";
import { findPgbouncer, type Pgbouncer, startPgbouncer } from "./pgbouncer-process.js";

const databaseUrl = process.env.TEST_DATABASE_URL;
const binary = findPgbouncer();
const ORDERS = 30;
const CLIENTS = 6;
const quiet = { info() {}, warn() {}, error() {} };

describe("pgbouncer in CI", () => {
  it.runIf(process.env.CI === "true" && databaseUrl !== undefined)(
    "is installed (.ci/run installs it; TEST_PGBOUNCER names another binary)",
    () => {
      expect(
        binary,
        "pgbouncer not found: install it (apt-get install pgbouncer) or set TEST_PGBOUNCER",
      ).toBeDefined();
    },
  );
});

describe.skipIf(!databaseUrl || !binary)(
  `the service through PgBouncer in transaction mode${!databaseUrl ? " (skipped: TEST_DATABASE_URL is not set)" : !binary ? " (skipped: pgbouncer not found; set TEST_PGBOUNCER)" : ""}`,
  () => {
    const name = `incasso_pgb_${randomBytes(6).toString("hex")}`;
    let admin: SqlStore;
    let direct: SqlStore | undefined;
    let bouncer: Pgbouncer;
    let pooledUrl: URL;

    beforeAll(async () => {
      admin = await openStore({ databaseUrl, schema: `${name}_admin`, migrate: false });
      await admin.database.query(`CREATE DATABASE ${name}`);
      const target = new URL(databaseUrl as string);
      bouncer = await startPgbouncer({
        binary: binary as string,
        upstream: { host: target.hostname, port: Number(target.port || 5432) },
      });
      pooledUrl = new URL(target.href);
      pooledUrl.hostname = "127.0.0.1";
      pooledUrl.port = String(bouncer.port);
      pooledUrl.pathname = `/${name}`;
      // What an operator sets behind a transaction pooler (docs/operator.md).
      pooledUrl.searchParams.set("pgbouncer", "true");
    });
    afterAll(async () => {
      await direct?.close();
      await bouncer?.stop();
      await admin?.database.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin?.database.query(`DROP SCHEMA IF EXISTS ${name}_admin CASCADE`);
      await admin?.close();
    });

    it(`${ORDERS} orders from ${CLIENTS} clients, keys, webhook deliveries and /readyz: all answered, nothing half-stored`, {
      timeout: 120_000,
    }, async () => {
      const receiver = await startReceiver(() => 204);
      const incasso = await createIncasso(
        { databaseUrl: pooledUrl.href },
        {
          logger: quiet,
          env: { INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS: "1" },
          webhooks: { pollIntervalMs: 25 },
          letters: false,
        },
      );
      const { server, url } = await listen(incasso.api, { port: 0, host: "127.0.0.1" });
      const root = url.replace(/\/api\/v1$/, "");
      const readyz = async () =>
        (await fetch(`${root}/readyz`, { signal: AbortSignal.timeout(10_000) })).status;
      try {
        // The key path: several keys issued at once, each one usable.
        const keys = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            incasso.operations.createKey({
              organisation: `Pooler ${i} BV`,
              mode: "live",
              per_minute: 100_000,
              per_day: 100_000,
            }),
          ),
        );
        for (const { key } of keys) {
          const res = await fetch(`${url}/orders?limit=1`, { headers: { authorization: `Bearer ${key}` } });
          expect(res.status).toBe(200);
        }
        const apiKey = keys[0]?.key as string;
        const { rows: owner } = await incasso.store.database.query<{ organisation_id: string }>(
          "SELECT organisation_id FROM api_keys WHERE id = $1",
          [keys[0]?.id],
        );
        await incasso.store.webhookEndpoints.set({
          organisationId: owner[0]?.organisation_id as string,
          url: receiver.url,
          secret: "whsec_pooler_suite_secret_000000000001",
          now: new Date(),
        });

        const readiness: number[] = [await readyz()];
        const bodyOf = (i: number) =>
          JSON.stringify(
            orderBody({
              type: "incasso",
              reference: `PGB-${i}`,
              // Two orders per customer number: the second joins the first's case (a merge, which
              // sends invoice.updated), serialised by the placement's transaction-scoped lock.
              debtors: [business(`PGB-K${i % (ORDERS / 2)}`)],
            }),
          );
        const answers: {
          status: number;
          body: { id?: string; code?: string; case?: { case_number: string } };
        }[] = [];
        let next = 0;
        const client = async () => {
          while (next < ORDERS) {
            const i = next++;
            const res = await fetch(`${url}/orders`, {
              method: "POST",
              headers: {
                authorization: `Bearer ${apiKey}`,
                "content-type": "application/json",
                "idempotency-key": `pgb-${i}`,
              },
              body: bodyOf(i),
              signal: AbortSignal.timeout(30_000),
            });
            answers.push({
              status: res.status,
              body: (await res.json()) as (typeof answers)[number]["body"],
            });
            if (i % 5 === 0) readiness.push(await readyz());
          }
        };
        await Promise.all(Array.from({ length: CLIENTS }, client));

        expect(answers.map((a) => a.status)).toEqual(Array.from({ length: ORDERS }, () => 201));
        expect(readiness.every((s) => s === 200)).toBe(true);

        // Every order row stored with its case; one case per customer number.
        const directUrl = new URL(databaseUrl as string);
        directUrl.pathname = `/${name}`;
        direct = await openStore({ databaseUrl: directUrl.href, migrate: false });
        const { rows } = await direct.database.query<{ n: string; with_case: string; cases: string }>(
          "SELECT count(*) AS n, count(case_number) AS with_case, count(DISTINCT case_number) AS cases FROM orders",
        );
        expect(rows[0]).toEqual({ n: String(ORDERS), with_case: String(ORDERS), cases: String(ORDERS / 2) });
        const { rows: orphans } = await direct.database.query<{ n: string }>(
          "SELECT count(*) AS n FROM case_orders co WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = co.order_id)",
        );
        expect(orphans[0]?.n).toBe("0");

        // The outbox: each merged invoice's invoice.updated (3 invoices per order, 15 orders that
        // joined a case) is delivered, none left pending or failed.
        const MERGED_INVOICES = 3 * (ORDERS / 2);
        const delivered = await waitFor(async () => {
          const { rows: states } = await (direct as SqlStore).database.query<{ state: string; n: string }>(
            "SELECT state, count(*) AS n FROM webhook_events GROUP BY state ORDER BY state",
          );
          return states.length === 1 && states[0]?.state === "delivered" ? states : undefined;
        }, "every webhook event delivered");
        expect(delivered).toEqual([{ state: "delivered", n: String(MERGED_INVOICES) }]);
        expect(
          receiver.received.filter((d) => d.headers["x-service-event"] === "invoice.updated"),
        ).toHaveLength(MERGED_INVOICES);
        expect(await readyz()).toBe(200);
      } finally {
        server.close();
        await incasso.stop();
        await receiver.close();
      }
    });

    it("without pgbouncer=true, the first clash of statement names turns names off: every statement answered", {
      timeout: 60_000,
    }, async () => {
      // One server connection for every client: the second client to prepare a statement meets
      // the first one's name on it (42P05) at once.
      const single = await startPgbouncer({
        binary: binary as string,
        upstream: { host: pooledUrl.hostname, port: Number(new URL(databaseUrl as string).port || 5432) },
        poolSize: 1,
      });
      const plain = new URL(pooledUrl.href);
      plain.search = "";
      plain.port = String(single.port);
      const db = await openPostgresDatabase({ url: plain.href, maxConnections: 4 });
      try {
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, i) => db.query<{ n: number }>("SELECT $1::int AS n", [i])),
        );
        expect(answers.map((a) => a.rows[0]?.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
        const inTransaction = await Promise.all(
          Array.from({ length: 4 }, (_, i) =>
            db.transaction(
              async (tx) => (await tx.query<{ n: number }>("SELECT $1::int + 1 AS n", [i])).rows[0]?.n,
            ),
          ),
        );
        expect(inTransaction).toEqual([1, 2, 3, 4]);
      } finally {
        await db.close();
        await single.stop();
      }
    });
  },
);
