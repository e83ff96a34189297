// A database that stops answering (issue 29, item 3; decision store-timeouts-and-keepalive).
// PostgreSQL is reached through a loopback TCP proxy that keeps every connection open but forwards
// nothing (a stall, a silent network partition): no error ever reaches the driver, so only the
// store's own time-outs end the wait. (a) Requests in flight are answered 503 service_unavailable
// with Retry-After within the query time-out, not held for the whole stall; (b) after a black hole
// of several seconds under traffic, /readyz and orders recover within seconds of the heal, without
// a restart: the connections that had a statement in the hole were closed, not kept in the pool.
// PostgreSQL only: skipped without TEST_DATABASE_URL.
import { randomBytes } from "node:crypto";
import { createIncasso, type Incasso } from "@incasso/app";
import { listen } from "@incasso/server/node";
import { openStore, type SqlStore } from "@incasso/store-sql";
import { CuttableProxy } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { business, orderBody } from "../http/orders-fixtures.js";

const databaseUrl = process.env.TEST_DATABASE_URL;
/** The store's time-outs in this test: a statement's answer, and a connection. */
const TIMEOUT_MS = 2000;
/**
 * How late after the time-out a 503 may come on a loaded machine: a request may meet the time-out
 * twice (a statement, then a connection) before it is answered.
 */
const ANSWER_BOUND_MS = 2 * TIMEOUT_MS + 3000;
const BLACK_HOLE_MS = 6000;
/** How soon after the heal /readyz and orders must be back. */
const RECOVERY_BOUND_MS = 15_000;
/** A request still unanswered after this is a hang (the failure this test exists for). */
const HANG_MS = 25_000;

const quiet = { info() {}, warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  /** The HTTP status, or "hang" when no answer came within HANG_MS. */
  status: number | "hang";
  ms: number;
  retryAfter: string | null;
  contentType: string | null;
  code: string | undefined;
}

describe.skipIf(!databaseUrl)(
  "a database that stops answering (PostgreSQL through a stalled proxy; needs TEST_DATABASE_URL)",
  () => {
    const name = `incasso_stall_${randomBytes(6).toString("hex")}`;
    let admin: SqlStore;
    let proxy: CuttableProxy;
    let incasso: Incasso;
    let server: { close(): void };
    let api: string;
    let root: string;
    let apiKey: string;
    let orders = 0;

    beforeAll(async () => {
      admin = await openStore({ databaseUrl, schema: `${name}_admin`, migrate: false });
      await admin.database.query(`CREATE DATABASE ${name}`);
      const target = new URL(databaseUrl as string);
      proxy = new CuttableProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const proxied = new URL(target.href);
      proxied.pathname = `/${name}`;
      proxied.hostname = "127.0.0.1";
      proxied.port = String(await proxy.listen());
      incasso = await createIncasso(
        { databaseUrl: proxied.href },
        {
          logger: quiet,
          env: {},
          webhooks: false,
          letters: false,
          database: { queryTimeoutMs: TIMEOUT_MS, connectionTimeoutMs: TIMEOUT_MS },
        },
      );
      const listening = await listen(incasso.api, { port: 0, host: "127.0.0.1" });
      server = listening.server;
      api = listening.url;
      root = api.replace(/\/api\/v1$/, "");
      ({ key: apiKey } = await incasso.operations.createKey({
        organisation: "Stall BV",
        mode: "live",
        per_minute: 100_000,
        per_day: 100_000,
      }));
    });
    afterAll(async () => {
      proxy?.heal();
      server?.close();
      await incasso?.stop();
      await proxy?.close();
      await admin?.database.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin?.database.query(`DROP SCHEMA IF EXISTS ${name}_admin CASCADE`);
      await admin?.close();
    });

    async function answer(run: (signal: AbortSignal) => Promise<Response>): Promise<Answer> {
      const started = Date.now();
      try {
        const res = await run(AbortSignal.timeout(HANG_MS));
        const body = (await res.json()) as { code?: string };
        return {
          status: res.status,
          ms: Date.now() - started,
          retryAfter: res.headers.get("retry-after"),
          contentType: res.headers.get("content-type"),
          code: body.code,
        };
      } catch {
        return {
          status: "hang",
          ms: Date.now() - started,
          retryAfter: null,
          contentType: null,
          code: undefined,
        };
      }
    }

    const postOrder = () => {
      const i = orders++;
      return answer((signal) =>
        fetch(`${api}/orders`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${apiKey}`,
            "content-type": "application/json",
            "idempotency-key": `stall-${i}`,
          },
          body: JSON.stringify(
            orderBody({ type: "incasso", reference: `STALL-${i}`, debtors: [business(`STALL-${i}`)] }),
          ),
          signal,
        }),
      );
    };
    const readyz = () => answer((signal) => fetch(`${root}/readyz`, { signal }));

    const unavailable = {
      status: 503,
      retryAfter: "5",
      contentType: "application/problem+json",
      code: "service_unavailable",
    };

    it("(a) requests in flight when the network stalls are answered 503 with Retry-After within the time-out", {
      timeout: 60_000,
    }, async () => {
      // Every connection of the pool in use once, so the stall meets connections already open.
      const warm = await Promise.all(Array.from({ length: 4 }, postOrder));
      expect(warm.map((a) => a.status)).toEqual([201, 201, 201, 201]);
      expect((await readyz()).status).toBe(200);

      proxy.blackHole();
      try {
        const stalled = await Promise.all([postOrder(), postOrder(), postOrder(), postOrder(), readyz()]);
        for (const a of stalled.slice(0, 4)) {
          expect(a).toMatchObject(unavailable);
          expect(a.ms).toBeLessThan(ANSWER_BOUND_MS);
        }
        const probe = stalled[4] as Answer;
        expect(probe.status).toBe(503);
        expect(probe.ms).toBeLessThan(ANSWER_BOUND_MS);
        expect(proxy.dropped).toBeGreaterThan(0);
      } finally {
        proxy.heal();
      }
    });

    it(`(b) after a ${BLACK_HOLE_MS / 1000} s black hole under traffic, /readyz and orders recover within seconds of the heal`, {
      timeout: 120_000,
    }, async () => {
      expect((await readyz()).status).toBe(200);
      proxy.blackHole();
      const holeEnds = Date.now() + BLACK_HOLE_MS;
      const during: Answer[] = [];
      // Three clients keep sending orders and probes into the hole, as a load balancer and callers would.
      const client = async (send: () => Promise<Answer>) => {
        while (Date.now() < holeEnds) {
          during.push(await send());
          await sleep(200);
        }
      };
      await Promise.all([client(postOrder), client(postOrder), client(readyz)]);
      proxy.heal();
      const healed = Date.now();

      expect(during.length).toBeGreaterThan(0);
      for (const a of during) {
        expect(a.status).toBe(503);
        expect(a.ms).toBeLessThan(ANSWER_BOUND_MS);
      }

      // Ready again, and taking orders, without a restart.
      let ready: Answer | undefined;
      for (let tries = 0; tries < 60 && ready?.status !== 200; tries++) {
        if (tries > 0) await sleep(250);
        ready = await readyz();
      }
      expect(ready?.status).toBe(200);
      const order = await postOrder();
      expect(order.status).toBe(201);
      expect(Date.now() - healed).toBeLessThan(RECOVERY_BOUND_MS);
      // Every connection the pool holds answers: none is left waiting on an answer lost in the hole.
      const burst = await Promise.all(Array.from({ length: 10 }, postOrder));
      expect(burst.map((a) => a.status)).toEqual(Array(10).fill(201));
    });
  },
);
