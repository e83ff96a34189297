import { randomBytes } from "node:crypto";
import { openCaseSystemStore } from "@incasso/case-system";
import { issueApiKey, type Principal } from "@incasso/core";
import { API_KEY_SECURITY_SCHEME, type Authenticate } from "@incasso/server";
import type { SqlStore } from "@incasso/store-sql";
import { fixtureApi, type RunningTransport, responseValidator, transports } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, json, orderBody } from "./orders-fixtures.js";

// A host's own authentication (decision server-pluggable-authentication): tokens the host issues
// itself (`Bearer host.NAME`), with the store's API keys accepted beside them. Everything
// downstream must behave as it does for keys: 401, test mode, visibility, creditor management,
// rate limits and the Idempotency-Key scope. On every transport, on PGlite, and on PostgreSQL when
// TEST_DATABASE_URL is set (a schema of its own, dropped after).
const url = process.env.TEST_DATABASE_URL;
const targets: { name: string; open: () => Promise<{ store: SqlStore; schema?: string }> }[] = [
  { name: "PGlite", open: async () => ({ store: await openCaseSystemStore() }) },
];
if (url) {
  targets.push({
    name: "PostgreSQL",
    open: async () => {
      const schema = `host_auth_${randomBytes(6).toString("hex")}`;
      return { store: await openCaseSystemStore({ databaseUrl: url, schema }), schema };
    },
  });
}

const quiet = { info() {}, warn() {}, error() {} };

describe.each(targets)("a host's own authentication on $name", (target) => {
  let store: SqlStore;
  let schema: string | undefined;
  let apiKey: string;
  const principals = new Map<string, Principal>();
  const authenticate: Authenticate = async (request, { apiKey }) => {
    const header = request.headers.get("authorization") ?? "";
    if (!header.startsWith("Bearer host.")) return apiKey();
    if (header === "Bearer host.broken") return { keyId: "usr_broken", mode: "production" } as never;
    return principals.get(header.slice("Bearer host.".length));
  };
  let api: ReturnType<typeof fixtureApi>;
  beforeAll(async () => {
    ({ store, schema } = await target.open());
    const issued = await issueApiKey(store, {
      organisation: "Host Agency BV",
      creditorName: "Host Creditor BV",
      mode: "live",
    });
    apiKey = issued.key;
    const base = {
      organisationId: issued.record.organisationId,
      organisationName: "Host Agency BV",
      creditorName: "Host Creditor BV",
      creditorManagement: false,
      rateLimits: { perMinute: 1000, perDay: 10_000 },
    };
    principals.set("anna", { ...base, keyId: "usr_anna", mode: "live", visibility: "own" });
    principals.set("bert", { ...base, keyId: "usr_bert", mode: "live", visibility: "own" });
    principals.set("boss", { ...base, keyId: "usr_boss", mode: "live", visibility: "organisation" });
    principals.set("tess", { ...base, keyId: "usr_tess", mode: "test", visibility: "own" });
    principals.set("slow", {
      ...base,
      keyId: "usr_slow",
      mode: "test",
      visibility: "own",
      rateLimits: { perMinute: 1, perDay: 10 },
    });
    api = fixtureApi({
      store,
      authenticate,
      securitySchemes: {
        hostToken: { type: "http", scheme: "bearer", description: "A token the agency issues: host.NAME." },
        bearerAuth: API_KEY_SECURITY_SCHEME,
      },
      pdfEngine: undefined,
      logger: quiet,
    });
  });
  afterAll(async () => {
    if (schema) await store.database.query(`DROP SCHEMA ${schema} CASCADE`);
    await store.close();
  });

  it("the OpenAPI document names the host's scheme beside the keys', as alternatives", () => {
    const doc = api.openapi() as {
      components: { securitySchemes: Record<string, unknown> };
      paths: Record<string, Record<string, { security: unknown }>>;
    };
    expect(doc.components.securitySchemes).toEqual({
      hostToken: { type: "http", scheme: "bearer", description: "A token the agency issues: host.NAME." },
      bearerAuth: API_KEY_SECURITY_SCHEME,
    });
    expect(doc.paths["/orders"]?.post?.security).toEqual([{ hostToken: [] }, { bearerAuth: [] }]);
    expect(doc.paths["/ping"]?.get?.security).toEqual([{}, { hostToken: [] }, { bearerAuth: [] }]);
    expect(doc.paths["/tools/wik"]?.post?.security).toEqual([]);
  });

  describe.each(transports)("over $name", (transport) => {
    let t: RunningTransport;
    let check: ReturnType<typeof responseValidator>;
    beforeAll(async () => {
      t = await transport.start(api);
      check = responseValidator(api.openapi());
    });
    afterAll(() => t.close());
    const host = (name: string) => `host.${name}`;
    // Each transport its own references, so the orders of one do not answer another's requests.
    const ref = (r: string) => `${r}-${transport.name}`;

    it("GET /ping shows the host's principal, and the store's keys still work beside it", async () => {
      const mine = await t.request("/ping", bearer(host("anna")));
      expect(mine.status).toBe(200);
      expect(await mine.json()).toEqual({
        status: "ok",
        time: "2026-11-21T10:00:00.000Z",
        authenticated: true,
        client: { name: "Host Agency BV", mode: "live", creditor: "Host Creditor BV" },
        features: { creditor_management: false },
      });
      const key = await t.request("/ping", bearer(apiKey));
      expect(((await key.json()) as { authenticated: boolean }).authenticated).toBe(true);
    });

    it("nobody is 401 problem+json with the challenge of today, with and without a header", async () => {
      for (const [init, sent] of [
        [bearer(host("nobody")), true],
        [{}, false],
      ] as const) {
        const res = await t.request("/orders", init);
        expect(res.status).toBe(401);
        expect(res.headers.get("content-type")).toBe("application/problem+json");
        expect(res.headers.get("www-authenticate")).toBe(
          sent ? 'Bearer realm="incasso", error="invalid_token"' : 'Bearer realm="incasso"',
        );
        const body = (await res.json()) as Record<string, unknown>;
        expect(body).toMatchObject({ status: 401, code: "unauthorized" });
        check("/orders", "get", 401, body);
      }
    });

    it("a live principal places an order on a case; a test principal gets no case and test_mode", async () => {
      const live = await t.request("/orders", json(host("anna"), orderBody({ reference: ref("HA-1") })));
      expect(live.status).toBe(201);
      const placed = (await live.json()) as { mode: string; case: { case_number: string | null } };
      expect(placed.mode).toBe("live");
      expect(placed.case.case_number).toMatch(/^\d{4}-\d{6}$/);
      const test = await t.request("/orders", json(host("tess"), orderBody({ reference: ref("HA-2") })));
      expect(test.status).toBe(201);
      const tried = (await test.json()) as { mode: string; case: unknown; warnings: { code: string }[] };
      expect(tried.mode).toBe("test");
      expect(tried.case).toEqual({ case_number: null, new: true });
      expect(tried.warnings.map((w) => w.code)).toContain("test_mode");
    });

    it("visibility own keeps a principal's orders from another; organisation sees them", async () => {
      const res = await t.request("/orders", json(host("anna"), orderBody({ reference: ref("HA-3") })));
      const { id } = (await res.json()) as { id: string };
      expect((await t.request(`/orders/${id}`, bearer(host("anna")))).status).toBe(200);
      const other = await t.request(`/orders/${id}`, bearer(host("bert")));
      expect(other.status).toBe(404);
      expect(((await other.json()) as { code: string }).code).toBe("not_found");
      expect((await t.request(`/orders/${id}`, bearer(host("boss")))).status).toBe(200);
    });

    it("an Idempotency-Key is scoped as for keys: another own principal gets 409, not the order", async () => {
      const key = `host-auth-${transport.name}-${randomBytes(4).toString("hex")}`;
      const body = orderBody({ reference: ref("HA-4") });
      const first = await t.request("/orders", json(host("anna"), body, { "idempotency-key": key }));
      expect(first.status).toBe(201);
      const again = await t.request("/orders", json(host("anna"), body, { "idempotency-key": key }));
      expect(again.status).toBe(201);
      expect(again.headers.get("idempotency-replayed")).toBe("true");
      const other = await t.request("/orders", json(host("bert"), body, { "idempotency-key": key }));
      expect(other.status).toBe(409);
      expect(((await other.json()) as { code: string }).code).toBe("idempotency_conflict");
    });

    it("creditor management off is 403 creditor_feature_disabled, as for a key", async () => {
      const res = await t.request("/creditors", json(host("anna"), { reference: "C-1", name: "C BV" }));
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe("creditor_feature_disabled");
    });

    it("the principal's own rate limit counts under its keyId", async () => {
      // One order per minute for usr_slow; each transport is a new minute of its own counters
      // only if the key differs, so the principal is given a key id per transport.
      principals.set(`slow-${transport.name}`, {
        ...(principals.get("slow") as Principal),
        keyId: `usr_slow_${transport.name.replaceAll(/[^a-z]/g, "")}`,
      });
      const name = host(`slow-${transport.name}`);
      const first = await t.request("/orders", json(name, orderBody({ reference: ref("HA-5") })));
      expect(first.status).toBe(201);
      expect(first.headers.get("ratelimit-limit")).toBe("1");
      const second = await t.request("/orders", json(name, orderBody({ reference: ref("HA-6") })));
      expect(second.status).toBe(429);
      expect(((await second.json()) as { code: string }).code).toBe("rate_limited");
    });

    it("a principal that is not one is the host's mistake: 500 internal_error, never let through", async () => {
      const res = await t.request("/orders", bearer(host("broken")));
      expect(res.status).toBe(500);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(((await res.json()) as { code: string }).code).toBe("internal_error");
    });
  });
});

describe("the default authentication", () => {
  it("documents the API keys alone", () => {
    const doc = fixtureApi({ publicOnly: true }).openapi() as {
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.components.securitySchemes).toEqual({ bearerAuth: API_KEY_SECURITY_SCHEME });
  });

  it("refuses an empty map of security schemes, which would document the routes as open", () => {
    expect(() => fixtureApi({ publicOnly: true, securitySchemes: {} })).toThrowError(
      "createApi: securitySchemes needs at least one scheme; leave it out for the API keys'.",
    );
  });
});
