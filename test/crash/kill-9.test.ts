// Kill -9 in the middle of a burst of orders (issue 22, item 12): `incasso serve` takes POST /orders
// from a few concurrent clients, each order with its own Idempotency-Key; the process is killed
// with SIGKILL, started again on the same storage, and every order whose answer was lost (or that
// was never sent) is sent again with the same key and body. Afterwards every acknowledged order
// exists exactly once, a repeat returns the same order id, and no key has placed two orders
// (decision idempotency-keys: a retry that takes over a record left in progress, or finds its
// order under the derived id, answers that order). On the embedded data directory always, and on
// PostgreSQL when TEST_DATABASE_URL is set (a database of its own, dropped afterwards).
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { request } from "node:http";
import { openStore } from "@incasso/store-sql";
import { cliProcesses, newDataDir } from "@incasso/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { business, orderBody } from "../http/orders-fixtures.js";

const ORDERS = 200;
const CLIENTS = 4;
/** The server is killed once this many orders were acknowledged. */
const KILL_AFTER_ACKS = 50;
/**
 * The Idempotency-Key lease of both servers (decision idempotency-lease-setting): a record the
 * killed process left in progress is free for a retry after this, not after the default 30 s.
 * A restart that takes longer than the lease finds every such record free already: a retry then
 * takes it over without a 409 first (the wait itself is tested in idempotency-lease.test.ts).
 */
const LEASE_SECONDS = 5;
/** The longest a retry may wait for a record left in progress by the killed process: the lease and 15 s. */
const RETRY_DEADLINE_MS = (LEASE_SECONDS + 15) * 1000;

const cli = cliProcesses();
afterAll(() => cli.killAll("SIGKILL"));

interface Storage {
  name: string;
  /** Flags that point the CLI at the storage, and how to remove it afterwards. */
  open(): Promise<{ args: string[]; drop(): Promise<void> }>;
}

const storages: Storage[] = [
  {
    name: "the embedded data directory",
    async open() {
      const dir = await newDataDir("incasso-kill9-");
      return { args: ["--data-dir", dir], drop: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
];
const databaseUrl = process.env.TEST_DATABASE_URL;
if (databaseUrl) {
  storages.push({
    name: "PostgreSQL",
    async open() {
      // A database of its own: `serve` works in the public schema of the database it is given.
      const name = `incasso_kill9_${randomBytes(6).toString("hex")}`;
      const admin = await openStore({ databaseUrl, schema: `${name}_admin` });
      await admin.database.query(`CREATE DATABASE ${name}`);
      const url = new URL(databaseUrl);
      url.pathname = `/${name}`;
      return {
        args: ["--database-url", url.href],
        async drop() {
          await admin.database.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await admin.database.query(`DROP SCHEMA ${name}_admin CASCADE`);
          await admin.close();
        },
      };
    },
  });
}

/** Starts `incasso serve` and resolves with the process and its URL once it listens. */
function serve(storageArgs: string[]): Promise<{ proc: ChildProcess; url: string }> {
  const proc = cli.start([
    "serve",
    "--port",
    "0",
    "--host",
    "127.0.0.1",
    "--no-webhook-dispatcher",
    "--no-letter-runner",
    "--idempotency-lease",
    String(LEASE_SECONDS),
    ...storageArgs,
  ]);
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    proc.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      // The start lines are JSON log lines (decision operations-logs); the last one names the data.
      const entries = out
        .split("\n")
        .filter((line) => line.startsWith("{") && line.endsWith("}"))
        .map((line) => JSON.parse(line) as { msg?: string; url?: string });
      const url = entries.find((entry) => entry.msg?.startsWith("incasso listening on"))?.url;
      if (url && entries.some((entry) => entry.msg?.startsWith("data: "))) resolve({ proc, url });
    });
    proc.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    proc.on("exit", (code, signal) => reject(new Error(`serve ended (${code ?? signal}): ${out}${err}`)));
  });
}

async function createKey(storageArgs: string[]): Promise<string> {
  const created = await cli.run([
    "keys",
    "create",
    "--organisation",
    "Crash BV",
    "--mode",
    "live",
    "--per-minute",
    "100000",
    "--per-day",
    "100000",
    "--json",
    ...storageArgs,
  ]);
  expect(created.code).toBe(0);
  return (JSON.parse(created.out) as { key: string }).key;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Order `i`: its own Idempotency-Key, reference and customer number, so it opens a case of its own. */
function order(i: number) {
  return {
    key: `kill9-${i}`,
    body: JSON.stringify(
      orderBody({ type: "incasso", reference: `K9-${i}`, debtors: [business(`K9-${i}`)] }),
    ),
  };
}

function post(url: string, apiKey: string, i: number): Promise<Response> {
  const { key, body } = order(i);
  return fetch(`${url}/orders`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${apiKey}`,
      "content-type": "application/json",
      "idempotency-key": key,
    },
    body,
    signal: AbortSignal.timeout(30_000),
  });
}

/**
 * Starts sending order `i` and holds back the second half of its body, so the process cannot have
 * answered it: resolves once the connection is open, with a promise that settles when the request
 * ends (an error once the process is killed).
 */
async function postHeldOpen(url: string, apiKey: string, i: number): Promise<{ ended: Promise<number> }> {
  const { key, body } = order(i);
  const bytes = Buffer.from(body);
  const req = request(`${url}/orders`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${apiKey}`,
      "content-type": "application/json",
      "content-length": String(bytes.length),
      "idempotency-key": key,
    },
  });
  const ended = new Promise<number>((resolve, reject) => {
    req.once("response", (res) => resolve(res.statusCode ?? 0));
    req.once("error", reject);
  });
  ended.catch(() => undefined);
  req.write(bytes.subarray(0, bytes.length >> 1));
  await new Promise<void>((resolve, reject) =>
    req
      .once("socket", (socket) => (socket.connecting ? socket.once("connect", resolve) : resolve()))
      .once("error", reject),
  );
  return { ended };
}

interface Placed {
  id: string;
  reference: string;
  case: { case_number: string | null; new: boolean };
}

for (const storage of storages) {
  describe(`kill -9 of incasso serve on ${storage.name}`, () => {
    it(`${ORDERS} orders from ${CLIENTS} clients: every acknowledged order exists once, retries get the same order`, {
      timeout: 150_000,
    }, async () => {
      const { args, drop } = await storage.open();
      try {
        // POST /orders has a limit of its own; the reads below stay within the 120 a minute of
        // the other endpoints.
        const apiKey = await createKey(args);
        const reader = apiKey;
        const started = Date.now();
        const phase: string[] = [];
        const mark = (what: string) => phase.push(`${what} ${((Date.now() - started) / 1000).toFixed(1)} s`);

        // The burst, until the kill.
        const first = await serve(args);
        mark("started");
        const acked = new Map<number, Placed>();
        const lost = new Set<number>();
        let next = 0;
        let killed = false;
        const client = async () => {
          while (!killed && next < ORDERS) {
            const i = next++;
            let answer: { status: number; body: Placed };
            try {
              const res = await post(first.url, apiKey, i);
              answer = { status: res.status, body: (await res.json()) as Placed };
            } catch (error) {
              // No answer (connection reset or refused): only expected once the process is dead.
              if (!killed) throw error;
              lost.add(i);
              continue;
            }
            expect({ i, status: answer.status }).toEqual({ i, status: 201 });
            acked.set(i, answer.body);
            if (acked.size >= KILL_AFTER_ACKS && !killed) {
              // One more order, its upload cut by the kill: half its body is held back, so it is
              // surely in flight when the process dies. The other clients' requests may be too, or
              // may have been answered just before.
              const cut = next++;
              const upload = await postHeldOpen(first.url, apiKey, cut);
              killed = true;
              first.proc.kill("SIGKILL");
              await expect(upload.ended).rejects.toThrow();
              lost.add(cut);
            }
          }
        };
        await Promise.all(Array.from({ length: CLIENTS }, client));
        await new Promise<void>((resolve) =>
          first.proc.exitCode !== null || first.proc.signalCode !== null
            ? resolve()
            : first.proc.on("exit", () => resolve()),
        );
        expect(first.proc.signalCode).toBe("SIGKILL");
        // The cut upload at least had no answer.
        expect(lost.size).toBeGreaterThan(0);
        expect(acked.size + lost.size).toBe(next);

        // Restart on the same storage; send every order that got no answer (lost in flight or never
        // sent), and every acknowledged one again, each with its own key and the same body.
        mark("killed");
        const second = await serve(args);
        mark("restarted");
        const deadline = Date.now() + RETRY_DEADLINE_MS;
        const final = new Map<number, { id: string; replayed: boolean; status: number }>();
        let waitedInProgress = 0;
        const queue = Array.from({ length: ORDERS }, (_, i) => i);
        const retry = async () => {
          for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
            const res = await post(second.url, apiKey, i);
            const body = (await res.json()) as Placed & { code?: string };
            // A record the killed process left in progress stays claimed until its lease runs
            // out: try the others first, and this one again later.
            if (res.status === 409 && body.code === "idempotency_in_progress" && Date.now() < deadline) {
              waitedInProgress++;
              queue.push(i);
              if (queue.length <= CLIENTS) await sleep(Number(res.headers.get("retry-after") ?? "1") * 1000);
              continue;
            }
            final.set(i, {
              id: body.id,
              replayed: res.headers.get("idempotency-replayed") === "true",
              status: res.status,
            });
          }
        };
        await Promise.all(Array.from({ length: CLIENTS }, retry));
        mark("retried");

        for (let i = 0; i < ORDERS; i++) {
          const f = final.get(i);
          expect({ i, status: f?.status }).toEqual({ i, status: 201 });
          const ack = acked.get(i);
          if (ack) {
            // An acknowledged order: the repeat is a replay of it.
            expect({ i, id: f?.id, replayed: f?.replayed }).toEqual({ i, id: ack.id, replayed: true });
          }
        }

        // Every acknowledged order still exists, exactly as acknowledged.
        await Promise.all(
          [...acked].map(async ([i, ack]) => {
            const res = await fetch(`${second.url}/orders/${ack.id}`, {
              headers: { authorization: `Bearer ${reader}` },
            });
            expect({ i, status: res.status }).toEqual({ i, status: 200 });
            const status = (await res.json()) as Placed;
            expect({ i, reference: status.reference, case: status.case.case_number }).toEqual({
              i,
              reference: `K9-${i}`,
              case: ack.case.case_number,
            });
          }),
        );

        mark("read");
        // Count: every order stored exactly once, under the id its key was last answered with,
        // each on a case of its own.
        const stored: (Placed & { case: { case_number: string } })[] = [];
        let cursor: string | null = null;
        do {
          const page = await fetch(`${second.url}/orders?limit=100${cursor ? `&cursor=${cursor}` : ""}`, {
            headers: { authorization: `Bearer ${reader}` },
          });
          expect(page.status).toBe(200);
          const body = (await page.json()) as { data: typeof stored; next_cursor: string | null };
          stored.push(...body.data);
          cursor = body.next_cursor;
        } while (cursor !== null);
        mark("listed");
        expect(stored).toHaveLength(ORDERS);
        const byReference = new Map(stored.map((o) => [o.reference, o.id]));
        expect(byReference.size).toBe(ORDERS);
        for (let i = 0; i < ORDERS; i++) {
          expect({ i, id: byReference.get(`K9-${i}`) }).toEqual({ i, id: final.get(i)?.id });
        }
        expect(new Set(stored.map((o) => o.case.case_number)).size).toBe(ORDERS);
        console.info(
          `kill -9 on ${storage.name}: ${acked.size} acknowledged before the kill, ${lost.size} lost in flight, ` +
            `${ORDERS - next} never sent; ${waitedInProgress} retries met a lease of the killed process; ${phase.join(", ")}`,
        );
        second.proc.kill("SIGTERM");
      } finally {
        cli.killAll("SIGKILL");
        await drop();
      }
    });
  });
}
