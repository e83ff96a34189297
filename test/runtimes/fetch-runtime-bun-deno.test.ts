import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { createBuiltInCaseSystem, openCaseSystemStore } from "@incasso/case-system";
import { issueApiKey } from "@incasso/core";
import { lookupRolRouter } from "@incasso/rol-router";
import { createApi } from "@incasso/server";
import type { SqlStore } from "@incasso/store-sql";
import { type RunningTransport, remoteTransport, responseValidator } from "@incasso/test-utils";
import { calculateWik } from "@incasso/wik";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listeningUrl } from "../examples/node-host.js";
import { runtimeBinary } from "./runtime-binary.js";

// Issue 32 item 5: examples/fetch-runtime, unchanged, started with Bun and with Deno (both from
// npm, devDependencies of this package) on a throwaway PostgreSQL database, answers the requests
// of the HTTP suite that a fetch runtime serves: probes of the API, the public tools, keys,
// creditors, orders with idempotency and control requests, and the problem+json errors of bad
// input. Needs the workspace build (the example imports the packages' dist, as a user's install
// does) and TEST_DATABASE_URL (the example keeps its data in the PostgreSQL of DATABASE_URL).
const root = fileURLToPath(new URL("../../", import.meta.url));
const url = process.env.TEST_DATABASE_URL;
const today = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Amsterdam",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
}).format(new Date());

const runtimes = [
  { name: "Bun", binary: runtimeBinary("bun"), args: [] as string[] },
  // Deno reads the workspace's node_modules (package.json beside it) and needs its permissions
  // granted: network, environment, files (the example's modules) and system information (pg).
  { name: "Deno", binary: runtimeBinary("deno"), args: ["run", "--allow-all"] },
];

/** Starts the example under `command` and resolves with its process and the URL it prints. */
function startExample(
  command: string[],
  args: string[],
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string }> {
  const { DATABASE_URL: _db, INCASSO_DATA_DIR: _dir, ...base } = process.env;
  const [file = "", ...pre] = command;
  const child = spawn(file, [...pre, ...args, "examples/fetch-runtime/server.mjs"], {
    cwd: root,
    env: { ...base, PORT: "0", HOST: "127.0.0.1", DENO_NO_UPDATE_CHECK: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    // Deno's npm launcher runs the binary as its own child: ending the group ends both.
    detached: true,
  });
  return listeningUrl(child, "the example").then((url) => ({ child, url }));
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

function preIncassoOrder(reference: string) {
  return {
    type: "pre-incasso",
    reference,
    debtors: [
      {
        type: "individual",
        first_name: "Jan",
        last_name: "Jansen",
        customer_number: `${reference}-K`,
        address: { street: "Teststraat", house_number: "2", postal_code: "9999 ZZ", city: "Testdorp" },
      },
    ],
    invoices: [
      { invoice_number: `${reference}-F1`, invoice_date: today, due_date: today, amount_cents: 100_000 },
    ],
  };
}

describe.each(runtimes)("examples/fetch-runtime under $name", ({ name, binary, args }) => {
  const skip = "reason" in binary ? binary.reason : url ? undefined : "TEST_DATABASE_URL is not set";
  const database = `incasso_${name.toLowerCase()}_${randomBytes(5).toString("hex")}`;
  let admin: SqlStore | undefined;
  let store: SqlStore | undefined;
  let child: ChildProcess | undefined;
  let t: RunningTransport;
  let key = "";
  let check: ReturnType<typeof responseValidator>;

  beforeAll(async () => {
    if (skip || !("command" in binary)) return;
    admin = await openCaseSystemStore({ databaseUrl: url, migrate: false });
    await admin.database.query(`CREATE DATABASE ${database}`);
    const u = new URL(url as string);
    u.pathname = `/${database}`;
    // The test's own store on the same database makes the key, as `incasso keys create` would.
    store = await openCaseSystemStore({ databaseUrl: u.toString() });
    ({ key } = await issueApiKey(store, {
      organisation: `${name} BV`,
      mode: "live",
      creditorManagement: true,
    }));
    const host = await startExample(binary.command, args, { DATABASE_URL: u.toString() });
    child = host.child;
    t = remoteTransport(host.url);
    // The document the same kernel makes on Node: the runtime must serve exactly this.
    check = responseValidator(createApi({ store, caseSystem: createBuiltInCaseSystem({ store }) }).openapi());
  }, 120_000);

  afterAll(async () => {
    if (child?.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGKILL");
    await store?.close();
    await admin?.database.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin?.close();
  });

  it(`runs (${"version" in binary ? binary.version.split("\n")[0] : "not here"})`, (ctx) => {
    if (skip) return ctx.skip(skip);
    expect(t.address?.prefix).toBe("/api/v1");
  });

  it("GET /ping answers 200 without a key, with the request id", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const res = await t.request("/ping");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: "ok", authenticated: false });
    check("/ping", "get", 200, body);
    const echoed = await t.request("/ping", { headers: { "x-request-id": "client-7" } });
    expect(echoed.headers.get("x-request-id")).toBe("client-7");
    await echoed.arrayBuffer();
  });

  it("GET /openapi.json is the document the kernel makes on Node", async (ctx) => {
    if (skip || !store) return ctx.skip(skip ?? "no store");
    const res = await t.request("/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const body = await res.json();
    const onNode = createApi({ store, caseSystem: createBuiltInCaseSystem({ store }) });
    const nodeRes = await onNode.fetch(new Request("http://127.0.0.1/api/v1/openapi.json"));
    expect(body).toEqual(await nodeRes.json());
  });

  it("POST /tools/wik and /tools/rol-router answer exactly as the libraries do", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const wikRequest = {
      amount_cents: 1_250_000,
      debtor_type: "business",
      due_date: "2024-02-29",
      include_vat: true,
    };
    const wik = await t.request("/tools/wik", json(wikRequest));
    expect(wik.status).toBe(200);
    expect(wik.headers.get("ratelimit-limit")).toBe("60");
    const wikBody = await wik.json();
    expect(wikBody).toEqual(calculateWik(wikRequest as never, { today }));
    check("/tools/wik", "post", 200, wikBody);

    const rolRequest = { woonplaats: "Assen", naam: "Van der Berg B.V." };
    const rol = await t.request("/tools/rol-router", json(rolRequest));
    expect(rol.status).toBe(200);
    const rolBody = await rol.json();
    expect(rolBody).toEqual(lookupRolRouter(rolRequest as never, { today }));
    check("/tools/rol-router", "post", 200, rolBody);

    const invalid = await t.request("/tools/wik", json({ amount_cents: 0, debtor_type: "company" }));
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get("content-type")).toBe("application/problem+json");
    const invalidBody = (await invalid.json()) as { code: string; errors: { field: string; code: string }[] };
    expect(invalidBody.code).toBe("validation_error");
    expect(invalidBody.errors.map((e) => [e.field, e.code])).toEqual([
      ["amount_cents", "too_small"],
      ["debtor_type", "invalid_value"],
    ]);
  });

  it("answers bad input with problem+json: broken JSON, no JSON, no key, a wrong key, an unknown route", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const cases: [Promise<Response>, number, string][] = [
      [t.request("/tools/wik", json("{")), 400, "invalid_json"],
      [
        t.request("/tools/wik", { method: "POST", headers: { "content-type": "text/plain" }, body: "x" }),
        415,
        "unsupported_media_type",
      ],
      [t.request("/orders"), 401, "unauthorized"],
      [t.request("/orders", { headers: { authorization: "Bearer sk_live_nonsense" } }), 401, "unauthorized"],
      [t.request("/no-such-route"), 404, "not_found"],
    ];
    for (const [pending, status, code] of cases) {
      const res = await pending;
      expect([res.status, res.headers.get("content-type")]).toEqual([status, "application/problem+json"]);
      expect(((await res.json()) as { code: string }).code).toBe(code);
    }
  });

  it("serves creditors, orders with idempotent replay, reads and a control request with a key", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const auth = { authorization: `Bearer ${key}` };
    const creditor = await t.request(
      "/creditors",
      json(
        { reference: "CRED-1", name: "Voorbeeld Schuldeiser B.V." },
        { ...auth, "idempotency-key": "c-1" },
      ),
    );
    expect(creditor.status).toBe(201);
    check("/creditors", "post", 201, await creditor.json());

    const submit = () =>
      t.request("/orders", json(preIncassoOrder("RT-1"), { ...auth, "idempotency-key": "o-1" }));
    const created = await submit();
    expect(created.status).toBe(201);
    const order = (await created.json()) as { id: string; type: string; reference: string };
    expect([order.type, order.reference]).toEqual(["pre-incasso", "RT-1"]);
    check("/orders", "post", 201, order);
    const replay = await submit();
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(((await replay.json()) as { id: string }).id).toBe(order.id);

    const read = await t.request(`/orders/${order.id}`, { headers: auth });
    expect(read.status).toBe(200);
    const readBody = (await read.json()) as { id: string };
    expect(readBody.id).toBe(order.id);
    check("/orders/{orderId}", "get", 200, readBody);

    const list = await t.request("/orders?limit=10", { headers: auth });
    expect(list.status).toBe(200);
    const listBody = (await list.json()) as { data: { id: string }[] };
    expect(listBody.data.map((o) => o.id)).toEqual([order.id]);
    check("/orders", "get", 200, listBody);

    const held = await t.request(`/orders/${order.id}/hold`, json({ reason: "Debtor called" }, auth));
    expect(held.status).toBe(202);
    check("/orders/{orderId}/hold", "post", 202, await held.json());

    const invalid = await t.request("/orders", json({ type: "pre-incasso" }, auth));
    expect(invalid.status).toBe(422);
    expect(((await invalid.json()) as { code: string }).code).toBe("validation_error");
  });
});
