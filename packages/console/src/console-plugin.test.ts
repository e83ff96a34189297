import { createApi } from "@incasso/server";
import { describe, expect, it } from "vitest";
import type { ConsoleOperations } from "./console-operations.js";
import { consolePlugin } from "./console-plugin.js";
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
const database = { query: async () => ({ rows: [] }) };
const secret = "s".repeat(32);
const api = createApi({
  publicOnly: true,
  logger: { info() {}, warn() {}, error() {} },
  plugins: [consolePlugin({ operators: directory, operations, cases, database, sessionSecret: secret })],
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
