import { createApi } from "@incasso/server";
import { beforeEach, describe, expect, it } from "vitest";
import type { ConsoleOperations, ConsoleOperatorAccount } from "./console-operations.js";
import { consolePlugin } from "./console-plugin.js";
import { memorySessionStore } from "./internal/testing/memory-session-store.js";
import type { Operator, OperatorDirectory } from "./operator-directory.js";

const HANDLER: Operator = { id: "op_handler00000000", name: "Henk", role: "handler" };
const ADMIN: Operator = { id: "op_admin0000000000", name: "Anne", role: "admin" };
const directory: OperatorDirectory = {
  login: async (credential) =>
    credential === "admin"
      ? { ok: true, operator: ADMIN }
      : credential === "handler"
        ? { ok: true, operator: HANDLER }
        : { ok: false, reason: "invalid" },
  get: async (id) => [HANDLER, ADMIN].find((o) => o.id === id) ?? null,
};

// The operator operations of the CLI, kept in memory: each call is recorded.
let accounts: ConsoleOperatorAccount[] = [];
const calls: string[] = [];
const CREDENTIAL = "opc_new0000000000_SECRETSECRETSECRETSECRET";
const operatorOps: Pick<ConsoleOperations, "createOperator" | "listOperators" | "revokeOperator"> = {
  createOperator: async (input) => {
    calls.push(`createOperator ${input.name} ${input.role}`);
    const created: ConsoleOperatorAccount = {
      id: "op_new0000000000",
      name: input.name,
      role: input.role ?? "handler",
      created_at: "2026-11-25T10:00:00.000Z",
      revoked_at: null,
      locked_until: null,
    };
    accounts.push(created);
    return { ...created, credential: CREDENTIAL };
  },
  listOperators: async () => {
    calls.push("listOperators");
    return accounts;
  },
  revokeOperator: async ({ id }) => {
    calls.push(`revokeOperator ${id}`);
    const found = accounts.find((o) => o.id === id);
    if (!found) throw Object.assign(new Error(`No operator with id ${id}.`), { code: "operator_not_found" });
    found.revoked_at = "2026-11-25T11:00:00.000Z";
    return found;
  },
};
const operations = operatorOps as ConsoleOperations;
const cases = { addNote: async () => ({ noteId: "1" }), readLetter: async () => undefined };
// The audit rows the console writes (console_audit), kept as their parameters.
const audited: unknown[][] = [];
const database = {
  query: async (sql: string, params?: unknown[]) => {
    if (sql.includes("INSERT INTO console_audit")) audited.push((params ?? []).slice(1));
    return { rows: [] };
  },
};
const sessions = memorySessionStore();
const api = createApi({
  publicOnly: true,
  logger: { info() {}, warn() {}, error() {} },
  plugins: [
    consolePlugin({
      operators: directory,
      operations,
      cases,
      database,
      sessions,
      sessionSecret: "s".repeat(32),
    }),
  ],
});

async function login(credential: string): Promise<string> {
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

const get = (path: string, cookie: string) =>
  api.fetch(new Request(`http://x${path}`, { headers: { cookie } }));
const post = (path: string, cookie: string, body: string) =>
  api.fetch(
    new Request(`http://x${path}`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body,
    }),
  );

async function csrfOf(cookie: string): Promise<string> {
  const html = await (await get("/console/operators", cookie)).text();
  return /name="csrf" value="([^"]+)"/.exec(html)?.[1] as string;
}

beforeEach(() => {
  accounts = [
    {
      id: ADMIN.id,
      name: ADMIN.name,
      role: "admin",
      created_at: "2026-11-20T09:30:00.000Z",
      revoked_at: null,
      locked_until: null,
    },
    {
      id: "op_old0000000000",
      name: "Oud & <weg>",
      role: "handler",
      created_at: "2026-11-21T10:00:00.000Z",
      revoked_at: "2026-11-22T10:00:00.000Z",
      locked_until: null,
    },
  ];
  calls.length = 0;
  audited.length = 0;
});

describe("the operators page", () => {
  it("lists operators with role, created and revoked, escaped, and offers no revoke on oneself or a revoked one", async () => {
    const cookie = await login("admin");
    const res = await get("/console/operators", cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    expect(html).toContain("<h1>Medewerkers</h1>");
    expect(html).toContain(
      "<tr><td><code>op_old0000000000</code></td><td>Oud &amp; &lt;weg&gt;</td><td>behandelaar</td>",
    );
    expect(html).toContain("<td><code>op_admin0000000000</code></td><td>Anne</td><td>beheerder</td>");
    expect(html).not.toContain("/intrekken");
    expect(html).toContain('<a href="/console/operators" aria-current="page">Medewerkers</a>');
    expect(calls).toEqual(["listOperators"]);
  });

  it("creates an operator with 201 and shows the credential this once, and records it in the audit trail", async () => {
    const cookie = await login("admin");
    const csrf = await csrfOf(cookie);
    const res = await post("/console/operators", cookie, `name=Jan+de+Vries&role=handler&csrf=${csrf}`);
    expect(res.status).toBe(201);
    const html = await res.text();
    expect(html).toContain(
      `<code class="secret" id="new-credential" data-field="new-credential">${CREDENTIAL}</code>`,
    );
    expect(html).toContain("Inlogcode van Jan de Vries (wordt één keer getoond; geef hem nu door):");
    expect(calls).toContain("createOperator Jan de Vries handler");
    expect(audited).toEqual([
      [ADMIN.id, "Anne", "Medewerker gemaakt", null, "op_new0000000000", "Jan de Vries (behandelaar)"],
    ]);
    const again = await (await get("/console/operators", cookie)).text();
    expect(again).toContain("<td>Jan de Vries</td>");
    expect(again).not.toContain(CREDENTIAL);
  });

  it("refuses an empty name or an unknown role with 422 and calls no create", async () => {
    const cookie = await login("admin");
    const csrf = await csrfOf(cookie);
    const empty = await post("/console/operators", cookie, `name=+&role=handler&csrf=${csrf}`);
    expect(empty.status).toBe(422);
    expect(await empty.text()).toContain('role="alert">Vul een naam in (ten hoogste 200 tekens).</p>');
    const role = await post("/console/operators", cookie, `name=Jan&role=root&csrf=${csrf}`);
    expect(role.status).toBe(422);
    expect(await role.text()).toContain('role="alert">Kies behandelaar of beheerder.</p>');
    expect(calls.filter((c) => c.startsWith("createOperator"))).toEqual([]);
  });

  it("revokes an operator (303 to the page with a notice) and records it; an unknown one is a 422", async () => {
    const cookie = await login("admin");
    const csrf = await csrfOf(cookie);
    await post("/console/operators", cookie, `name=Jan&role=handler&csrf=${csrf}`);
    const page = await (await get("/console/operators", cookie)).text();
    expect(page).toContain(
      'action="/console/operators/op_new0000000000/intrekken" class="inline" data-confirm="Medewerker Jan intrekken?"',
    );
    const res = await post("/console/operators/op_new0000000000/intrekken", cookie, `csrf=${csrf}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/console/operators?ok=operator-ingetrokken");
    expect(await (await get("/console/operators?ok=operator-ingetrokken", cookie)).text()).toContain(
      '<p class="notice ok" role="status">Medewerker ingetrokken.</p>',
    );
    expect(audited.at(-1)).toEqual([
      ADMIN.id,
      "Anne",
      "Medewerker ingetrokken",
      null,
      "op_new0000000000",
      "Jan",
    ]);
    const unknown = await post("/console/operators/op_nope/intrekken", cookie, `csrf=${csrf}`);
    expect(unknown.status).toBe(422);
    expect(await unknown.text()).toContain('role="alert">Deze medewerker bestaat niet.</p>');
  });

  it("refuses an admin revoking their own account with 422 and calls no revoke", async () => {
    const cookie = await login("admin");
    const csrf = await csrfOf(cookie);
    const res = await post(`/console/operators/${ADMIN.id}/intrekken`, cookie, `csrf=${csrf}`);
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('role="alert">U kunt uw eigen account hier niet intrekken.</p>');
    expect(calls.filter((c) => c.startsWith("revokeOperator"))).toEqual([]);
  });

  it("ends all sessions of another operator (303 with a notice), records it, and offers it on no revoked operator nor oneself", async () => {
    const admin = await login("admin");
    const csrf = await csrfOf(admin);
    accounts.push({
      id: HANDLER.id,
      name: HANDLER.name,
      role: "handler",
      created_at: "2026-11-21T11:00:00.000Z",
      revoked_at: null,
      locked_until: null,
    });
    const page = await (await get("/console/operators", admin)).text();
    expect(page).toContain(
      `<form method="post" action="/console/operators/${HANDLER.id}/sessies" class="inline" data-confirm="Alle sessies van Henk beëindigen?">`,
    );
    expect(page).not.toContain(`/operators/${ADMIN.id}/sessies`);
    expect(page).not.toContain("/operators/op_old0000000000/sessies");
    const first = await login("handler");
    const second = await login("handler");
    expect((await get("/console/udf", first)).status).toBe(200);
    const res = await post(`/console/operators/${HANDLER.id}/sessies`, admin, `csrf=${csrf}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/console/operators?ok=sessies-beeindigd");
    expect(audited.at(-1)).toEqual([
      ADMIN.id,
      "Anne",
      "Sessies beëindigd",
      null,
      HANDLER.id,
      "Henk: 2 sessies",
    ]);
    for (const cookie of [first, second]) {
      const replay = await get("/console/udf", cookie);
      expect(replay.status).toBe(303);
      expect(replay.headers.get("location")).toBe("/console/inloggen");
    }
    // The admin's own session goes on.
    expect(await (await get("/console/operators?ok=sessies-beeindigd", admin)).text()).toContain(
      '<p class="notice ok" role="status">Alle sessies van de medewerker zijn beëindigd.</p>',
    );
    const unknown = await post("/console/operators/op_nope/sessies", admin, `csrf=${csrf}`);
    expect(unknown.status).toBe(422);
    expect(await unknown.text()).toContain('role="alert">Deze medewerker bestaat niet.</p>');
  });

  it("ends the sessions of an operator it revokes", async () => {
    const admin = await login("admin");
    const csrf = await csrfOf(admin);
    await post("/console/operators", admin, `name=Jan&role=handler&csrf=${csrf}`);
    // A session of the new operator, begun as a log-in begins one.
    await sessions.begin({
      id: "s-jan",
      operatorId: "op_new0000000000",
      createdAt: new Date(),
      expiresAt: new Date(Date.now() + 3600_000),
    });
    expect(await sessions.isLive("s-jan", "op_new0000000000", new Date())).toBe(true);
    expect((await post("/console/operators/op_new0000000000/intrekken", admin, `csrf=${csrf}`)).status).toBe(
      303,
    );
    expect(await sessions.isLive("s-jan", "op_new0000000000", new Date())).toBe(false);
  });

  it("refuses a handler the page and its changes with 403, and hides it from a handler's navigation", async () => {
    const cookie = await login("handler");
    const page = await get("/console/operators", cookie);
    expect(page.status).toBe(403);
    expect(await page.text()).toContain("Dit deel van de console is alleen voor beheerders.");
    for (const [path, form] of [
      ["/console/operators", "name=Jan&role=admin"],
      ["/console/operators/op_old0000000000/intrekken", ""],
      [`/console/operators/${ADMIN.id}/sessies`, ""],
    ] as const)
      expect([path, (await post(path, cookie, form)).status]).toEqual([path, 403]);
    const cases = await (await get("/console/udf", cookie)).text();
    expect(cases).toContain('<a href="/console/zaken">Zaken</a>');
    expect(cases).not.toContain("/console/operators");
    expect(calls).toEqual([]);
  });

  it("refuses a create or revoke without the CSRF token, or with a wrong one, with 403 and calls nothing", async () => {
    const cookie = await login("admin");
    for (const [path, form] of [
      ["/console/operators", "name=Jan&role=admin"],
      ["/console/operators/op_old0000000000/intrekken", ""],
      ["/console/operators/op_old0000000000/sessies", ""],
    ] as const) {
      const without = await post(path, cookie, form);
      expect([path, without.status]).toEqual([path, 403]);
      expect(await without.text()).toContain("Het formulier is verlopen of kwam niet van deze console.");
      expect([path, (await post(path, cookie, `${form}&csrf=${"A".repeat(43)}`)).status]).toEqual([
        path,
        403,
      ]);
    }
    expect(calls).toEqual([]);
    expect(audited).toEqual([]);
  });
});
