import { connect } from "node:net";
import type { IncassoStore } from "@incasso/core";
import {
  type FixtureKeys,
  fixtureApi,
  fixtureKeys,
  fixtureStore,
  type RunningTransport,
  responseValidator,
  transports,
} from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let store: IncassoStore;
let api: ReturnType<typeof fixtureApi>;
let check: ReturnType<typeof responseValidator>;
beforeAll(async () => {
  store = await fixtureStore();
  api = fixtureApi({ store });
  check = responseValidator(api.openapi());
});
afterAll(() => store.close());

const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

/** One raw HTTP/1.1 request, for headers a fetch client refuses to send. */
function rawRequest(address: { host: string; port: number }, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(address.port, address.host);
    let out = "";
    socket.on("data", (c) => {
      out += c.toString("latin1");
    });
    socket.on("end", () => resolve(out));
    socket.on("error", reject);
    socket.write(text, "latin1");
  });
}

describe.each(transports)("API keys and auth over $name", (transport) => {
  let t: RunningTransport;
  let keys: FixtureKeys;
  beforeAll(async () => {
    t = await transport.start(api);
    keys = await fixtureKeys(store, `auth ${transport.name}`);
  });
  afterAll(() => t.close());

  async function unauthorized(res: Response, keyWasSent: boolean) {
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("www-authenticate")).toBe(
      keyWasSent ? 'Bearer realm="incasso", error="invalid_token"' : 'Bearer realm="incasso"',
    );
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      status: 401,
      code: "unauthorized",
      type: "https://incasso.dev/problems/unauthorized",
    });
    check("/creditors", "get", 401, body);
  }

  it("GET /ping with a valid live key shows the client and the creditor-management switch", async () => {
    const res = await t.request("/ping", bearer(keys.live));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      status: "ok",
      time: "2026-11-21T10:00:00.000Z",
      authenticated: true,
      client: { name: `auth ${transport.name} Acme`, mode: "live", creditor: "Acme Creditor BV" },
      features: { creditor_management: true },
    });
    check("/ping", "get", 200, body);
  });

  it("GET /ping with a test key shows mode test and the switch off", async () => {
    const body = await (await t.request("/ping", bearer(keys.test))).json();
    expect(body).toMatchObject({
      authenticated: true,
      client: { name: `auth ${transport.name} Acme`, mode: "test", creditor: "Acme Creditor BV" },
      features: { creditor_management: false },
    });
  });

  it("GET /ping with an invalid, unknown or revoked key answers 200 with authenticated false", async () => {
    for (const header of [
      `Bearer ${keys.revoked}`,
      `Bearer svc_test_${"x".repeat(32)}`,
      "Bearer nonsense",
      "Basic Zm9vOmJhcg==",
    ]) {
      const res = await t.request("/ping", { headers: { authorization: header } });
      expect(res.status, header).toBe(200);
      expect(await res.json()).toEqual({
        status: "ok",
        time: "2026-11-21T10:00:00.000Z",
        authenticated: false,
        features: { creditor_management: false },
      });
    }
  });

  it("a protected endpoint without a key → 401 unauthorized with a Bearer challenge", async () => {
    await unauthorized(await t.request("/creditors"), false);
  });

  it("malformed, unknown and revoked keys → 401 unauthorized", async () => {
    const headers = [
      `Bearer ${keys.revoked}`,
      `Bearer svc_live_${"A".repeat(32)}`,
      `Bearer ${keys.live}x`,
      `Bearer ${keys.live.slice(0, -1)}`,
      `Bearer  ${keys.live}`,
      `Token ${keys.live}`,
      keys.live,
      "Bearer",
      "Bearer ",
      `Bearer ${keys.live}, Bearer ${keys.other}`,
      `Bearer svc_prod_${"A".repeat(32)}`,
    ];
    for (const authorization of headers) {
      const res = await t.request("/creditors", { headers: { authorization } });
      expect(res.status, authorization).toBe(401);
      await unauthorized(res, true);
    }
  });

  it("the Bearer scheme name is case-insensitive (RFC 9110 §11.1)", async () => {
    const res = await t.request("/creditors", { headers: { authorization: `bEaReR ${keys.live}` } });
    expect(res.status).toBe(200);
  });

  it("an absurdly long key → 401, never 5xx", async () => {
    const res = await t.request("/creditors", {
      headers: { authorization: `Bearer svc_live_${"A".repeat(8000)}` },
    });
    await unauthorized(res, true);
  });

  it("a non-ASCII key → 401, never 5xx", async () => {
    for (const key of [`svc_live_${"é".repeat(32)}`, `${keys.live.slice(0, -1)}ÿ`]) {
      const res = await t.request("/creditors", { headers: { authorization: `Bearer ${key}` } });
      await unauthorized(res, true);
    }
  });

  it("header injection through the Authorization header is refused, never 5xx", async () => {
    if (!t.address) return; // needs a socket; fetch clients refuse these headers themselves
    const { host, port, prefix } = t.address;
    const attempts = [
      // obs-fold (RFC 9112 §5.2: a server must reject it or replace it with a space)
      `Authorization: Bearer ${keys.live}\r\n X-Injected: 1\r\n`,
      // a NUL inside the value
      `Authorization: Bearer ${keys.live}\u0000x\r\n`,
      // a bare LF splitting the value
      `Authorization: Bearer svc\nX-Admin: 1\r\n`,
      // raw bytes above 0x7F
      `Authorization: Bearer svc_live_${"\u00ff".repeat(32)}\r\n`,
    ];
    for (const header of attempts) {
      const response = await rawRequest(
        { host, port },
        `GET ${prefix}/creditors HTTP/1.1\r\nHost: ${host}\r\n${header}Connection: close\r\n\r\n`,
      );
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);
      expect([400, 401], JSON.stringify(header)).toContain(status);
    }
  });
});
