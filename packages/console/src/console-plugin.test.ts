import { createApi } from "@incasso/server";
import { listen } from "@incasso/server/node";
import { describe, expect, it } from "vitest";
import type { ConsoleOperations } from "./console-operations.js";
import { consolePlugin } from "./console-plugin.js";
import { memorySessionStore } from "./internal/testing/memory-session-store.js";
import type { Operator, OperatorDirectory } from "./operator-directory.js";

const HANDLER: Operator = { id: "opr_h", name: "Henk", role: "handler" };
const ADMIN: Operator = { id: "opr_a", name: "Anne", role: "admin" };
const directory: OperatorDirectory = {
  login: async (credential) =>
    credential === "admin"
      ? { ok: true, operator: ADMIN }
      : credential === "handler"
        ? { ok: true, operator: HANDLER }
        : { ok: false, reason: "invalid" },
  get: async (id) => [HANDLER, ADMIN].find((o) => o.id === id) ?? null,
};

// Operations that only record that they were called: a refused request must call none.
const calls: string[] = [];
const operations = new Proxy({} as ConsoleOperations, {
  get: (_target, name) => async () => {
    calls.push(String(name));
    throw Object.assign(new Error("not in this test"), { code: "case_not_found" });
  },
});
const cases = {
  addNote: async () => {
    calls.push("addNote");
    return { noteId: "1" };
  },
  readLetter: async () => undefined,
};
// The audit rows the console writes (console_audit), kept as their parameters.
const audited: unknown[][] = [];
const database = {
  query: async (sql: string, params?: unknown[]) => {
    if (sql.includes("INSERT INTO console_audit")) audited.push((params ?? []).slice(1));
    return { rows: [] };
  },
};
const secret = "s".repeat(32);
const sessions = memorySessionStore();
const api = createApi({
  publicOnly: true,
  logger: { info() {}, warn() {}, error() {} },
  plugins: [
    consolePlugin({ operators: directory, operations, cases, database, sessions, sessionSecret: secret }),
  ],
});

async function cookieOf(credential: string): Promise<string> {
  const res = await api.fetch(
    new Request("http://x/console/inloggen", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `credential=${credential}`,
    }),
  );
  expect(res.status).toBe(303);
  return (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
}

const post = (path: string, cookie: string, body: string) =>
  api.fetch(
    new Request(`http://x${path}`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body,
    }),
  );

// Every change the console makes, with a form that would pass its own checks.
const CHANGES: [string, string][] = [
  ["/console/zaken/2026-000001/betaling", "amount=10"],
  ["/console/zaken/2026-000001/status", "status=Aangehouden"],
  ["/console/zaken/2026-000001/sluiten", ""],
  ["/console/zaken/2026-000001/brief", ""],
  ["/console/zaken/2026-000001/notitie", "text=x"],
  ["/console/zaken/2026-000001/taken/act_1", "outcome=done"],
  ["/console/zaken/2026-000001/brieftaken/ord_1/opnieuw", ""],
  ["/console/webhooks/evt_1/opnieuw", ""],
  ["/console/webhooks/eindpunt", "organisation=A&url=https%3A%2F%2Fa.example%2F"],
  ["/console/webhooks/ping", "organisation=A"],
  ["/console/sleutels", "organisation=A&mode=test"],
  ["/console/sleutels/key_1/intrekken", ""],
  ["/console/operators", "name=Jan&role=handler"],
  ["/console/operators/op_1/intrekken", ""],
  ["/console/organisaties/briefgegevens", "organisation=A&iban=NL91ABNA0417164300"],
  ["/console/uitloggen", ""],
];

describe("consolePlugin", () => {
  it("refuses every change without a CSRF token, or with a wrong one, with 403 and calls no operation", async () => {
    const cookie = await cookieOf("admin");
    calls.length = 0;
    for (const [path, form] of CHANGES) {
      const without = await post(path, cookie, form);
      expect([path, without.status]).toEqual([path, 403]);
      expect(await without.text()).toContain("Het formulier is verlopen of kwam niet van deze console.");
      const wrong = await post(path, cookie, `${form}&csrf=${"A".repeat(43)}`);
      expect([path, wrong.status]).toEqual([path, 403]);
    }
    expect(calls).toEqual([]);
  });

  it("refuses a handler the admin sections on GET and POST, and calls no operation", async () => {
    const cookie = await cookieOf("handler");
    for (const path of ["/console/sleutels", "/console/operators", "/console/organisaties"]) {
      const res = await api.fetch(new Request(`http://x${path}`, { headers: { cookie } }));
      expect([path, res.status]).toEqual([path, 403]);
    }
    calls.length = 0;
    for (const [path, form] of CHANGES.filter(([p]) =>
      /sleutels|operators|eindpunt|ping|organisaties/.test(p),
    )) {
      const res = await post(path, cookie, form);
      expect([path, res.status]).toEqual([path, 403]);
      expect(await res.text()).toContain("Dit deel van de console is alleen voor beheerders.");
    }
    expect(calls).toEqual([]);
  });

  it("refuses a change without a session with 403, and a page without one goes to the login", async () => {
    for (const [path, form] of CHANGES)
      expect([path, (await post(path, "", form)).status]).toEqual([path, 403]);
    const page = await api.fetch(new Request("http://x/console/zaken"));
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/console/inloggen");
    expect(page.headers.get("set-cookie")).toBeNull();
    const stale = await api.fetch(
      new Request("http://x/console/zaken", { headers: { cookie: "incasso_console=forged.value" } }),
    );
    expect(stale.headers.get("set-cookie")).toBe(
      "incasso_console=; Path=/console; Max-Age=0; HttpOnly; SameSite=Strict",
    );
  });

  it("serves its script and stylesheet from the package, and pages with a strict CSP and no caching", async () => {
    const js = await api.fetch(new Request("http://x/console/assets/console.js"));
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const css = await api.fetch(new Request("http://x/console/assets/console.css"));
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    const login = await api.fetch(new Request("http://x/console/inloggen"));
    expect(login.headers.get("cache-control")).toBe("no-store");
    expect(login.headers.get("content-security-policy")).toContain("script-src 'self'; style-src 'self'");
    expect(login.headers.get("referrer-policy")).toBe("same-origin");
    expect(await login.text()).toContain('<input id="credential" name="credential" type="password"');
  });

  it("refuses a session secret shorter than 32 bytes", () => {
    expect(() =>
      consolePlugin({ operators: directory, operations, cases, database, sessionSecret: "short" }),
    ).toThrow("The console's sessionSecret must be at least 32 bytes.");
  });
});

const LIMIT = 64 * 1024;

/**
 * A body of `total` bytes of `x` in 4 KiB chunks, sent without a length (chunked); it counts what
 * was pulled and whether the reader cancelled it.
 */
function chunkedBody(prefix: string, total: number) {
  const state = { pulled: 0, cancelled: false };
  const head = new TextEncoder().encode(prefix);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= total) return controller.close();
      const size = Math.min(4096, total - state.pulled);
      const chunk = new Uint8Array(size).fill(0x78);
      if (state.pulled === 0) chunk.set(head.subarray(0, size));
      state.pulled += size;
      controller.enqueue(chunk);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

function postStream(path: string, cookie: string, body: ReadableStream<Uint8Array>, length?: number) {
  return api.fetch(
    new Request(`http://x${path}`, {
      method: "POST",
      headers: {
        cookie,
        "content-type": "application/x-www-form-urlencoded",
        ...(length === undefined ? {} : { "content-length": String(length) }),
      },
      body,
      duplex: "half",
    } as RequestInit),
  );
}

/** The CSRF token of a session, from a page of the console. */
async function csrfOf(cookie: string): Promise<string> {
  const html = await (await api.fetch(new Request("http://x/console/udf", { headers: { cookie } }))).text();
  return /name="csrf" value="([^"]+)"/.exec(html)?.[1] as string;
}

/** A form of exactly `size` bytes: the fields, and a `pad` field filling the rest. */
const formOf = (fields: string, size: number) => `${fields}&pad=${"x".repeat(size - fields.length - 5)}`;

async function expectTooLarge(res: Response, back: string) {
  expect(res.status).toBe(413);
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  const html = await res.text();
  expect(html).toContain('<html lang="nl">');
  expect(html).toContain("<title>Te groot · incasso-console</title>");
  expect(html).toContain("Het formulier is te groot.");
  expect(html).toContain(`href="${back}"`);
}

describe("console forms are read with their 64 KiB limit kept while reading", () => {
  it("refuses a chunked login form past the limit with the console's 413 page, and stops reading it", async () => {
    // 10 MiB offered; the reader must stop just past 64 KiB and cancel the rest.
    const { stream, state } = chunkedBody("credential=handler&pad=", 10 * 1024 * 1024);
    await expectTooLarge(await postStream("/console/inloggen", "", stream), "/console/inloggen");
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThanOrEqual(LIMIT + 3 * 4096);
  });

  it("refuses a login form declaring a Content-Length past the limit with 413 before reading it", async () => {
    const { stream, state } = chunkedBody("credential=handler&pad=", LIMIT + 1);
    await expectTooLarge(await postStream("/console/inloggen", "", stream, LIMIT + 1), "/console/inloggen");
    // Only what the stream queues on its own before anyone reads: at most one chunk.
    expect(state.pulled).toBeLessThanOrEqual(4096);
    const plain = await api.fetch(
      new Request("http://x/console/inloggen", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: formOf("credential=handler", LIMIT + 1),
      }),
    );
    await expectTooLarge(plain, "/console/inloggen");
  });

  it("logs in with a form of exactly the limit, chunked or with a Content-Length", async () => {
    const body = formOf("credential=handler", LIMIT);
    expect(new TextEncoder().encode(body).byteLength).toBe(LIMIT);
    const { stream } = chunkedBody("credential=handler&pad=", LIMIT);
    const chunked = await postStream("/console/inloggen", "", stream);
    expect(chunked.status).toBe(303);
    expect(chunked.headers.get("location")).toBe("/console/zaken");
    const sized = await api.fetch(
      new Request("http://x/console/inloggen", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
      }),
    );
    expect(sized.status).toBe(303);
  });

  it("refuses a form behind a session past the limit, chunked or with a Content-Length, and takes one at the limit", async () => {
    const cookie = await cookieOf("handler");
    const csrf = await csrfOf(cookie);
    const prefix = `csrf=${csrf}&text=Gebeld&pad=`;
    calls.length = 0;
    const path = "/console/zaken/2026-000001/notitie";
    const { stream, state } = chunkedBody(prefix, 10 * 1024 * 1024);
    await expectTooLarge(await postStream(path, cookie, stream), "/console/zaken");
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThanOrEqual(LIMIT + 3 * 4096);
    const declared = chunkedBody(prefix, LIMIT + 1);
    await expectTooLarge(await postStream(path, cookie, declared.stream, LIMIT + 1), "/console/zaken");
    expect(declared.state.pulled).toBeLessThanOrEqual(4096);
    expect(calls).toEqual([]);
    const atLimit = chunkedBody(prefix, LIMIT);
    const ok = await postStream(path, cookie, atLimit.stream);
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/console/zaken/2026-000001?ok=notitie");
    expect(calls).toEqual(["addNote"]);
  });
});

describe("a console form over a loopback connection", () => {
  it("answers a 600 MiB chunked login form with the 413 page, and the server stops taking the upload", async () => {
    const { server, url } = await listen(api, { port: 0 });
    try {
      const chunk = new Uint8Array(1024 * 1024).fill(0x78);
      const total = 600;
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= total) return controller.close();
          sent++;
          controller.enqueue(chunk);
        },
      });
      const res = await fetch(`${new URL(url).origin}/console/inloggen`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
        duplex: "half",
      } as RequestInit);
      await expectTooLarge(res, "/console/inloggen");
      // The rest of the upload was not read: the client was cut off long before its 600 MiB.
      expect(sent).toBeLessThan(total);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("console sessions are ended on the server", () => {
  const getPage = (cookie: string) => api.fetch(new Request("http://x/console/udf", { headers: { cookie } }));

  it("refuses a copy of the cookie after the log-out: a page goes to the login, a change is refused", async () => {
    const cookie = await cookieOf("handler");
    const csrf = await csrfOf(cookie);
    const other = await cookieOf("handler");
    const out = await post("/console/uitloggen", cookie, `csrf=${csrf}`);
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/console/inloggen");
    const page = await getPage(cookie);
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/console/inloggen");
    calls.length = 0;
    const change = await post("/console/zaken/2026-000001/notitie", cookie, `csrf=${csrf}&text=na+uitloggen`);
    expect(change.status).toBe(403);
    expect(await change.text()).toContain("Uw sessie is verlopen; log opnieuw in.");
    expect(calls).toEqual([]);
    // The operator's other session goes on.
    expect((await getPage(other)).status).toBe(200);
  });

  it("ends every session of the operator with a log-out everywhere, and records it", async () => {
    const first = await cookieOf("handler");
    const second = await cookieOf("handler");
    const admin = await cookieOf("admin");
    audited.length = 0;
    const out = await post("/console/uitloggen", first, `csrf=${await csrfOf(first)}&overal=1`);
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/console/inloggen");
    for (const cookie of [first, second]) {
      const page = await getPage(cookie);
      expect(page.status).toBe(303);
      expect(page.headers.get("location")).toBe("/console/inloggen");
    }
    expect((await getPage(admin)).status).toBe(200);
    expect(audited).toHaveLength(1);
    expect(audited[0]?.slice(0, 5)).toEqual([HANDLER.id, "Henk", "Overal uitgelogd", null, HANDLER.id]);
    expect(audited[0]?.[5]).toMatch(/^\d+ sessies beëindigd$/);
  });

  it("shows both log-out buttons in the header, in one form with the CSRF token", async () => {
    const cookie = await cookieOf("handler");
    const html = await (await getPage(cookie)).text();
    expect(html).toContain(
      '<button type="submit">Uitloggen</button>\n<button type="submit" name="overal" value="1" title="Beëindigt al uw sessies, ook in andere browsers">Overal uitloggen</button></form>',
    );
  });
});
