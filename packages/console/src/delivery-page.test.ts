import { createApi } from "@incasso/server";
import { describe, expect, it } from "vitest";
import type { ConsoleAttempt, ConsoleDelivery, ConsoleOperations } from "./console-operations.js";
import { consolePlugin } from "./console-plugin.js";
import { memorySessionStore } from "./internal/testing/memory-session-store.js";
import type { Operator, OperatorDirectory } from "./operator-directory.js";

// A ping or redelivery whose endpoint refused it shows as failed, and the delivery page shows the
// body sent and what the endpoint answered (issue 31, item 3).

const ADMIN: Operator = { id: "opr_a", name: "Anne", role: "admin" };
const directory: OperatorDirectory = {
  login: async (credential) =>
    credential === "admin" ? { ok: true, operator: ADMIN } : { ok: false, reason: "invalid" },
  get: async (id) => (id === ADMIN.id ? ADMIN : null),
};

const PAYLOAD = '{"id":"evt_0123456789abcdef","type":"ping","data":{"order_id":null}}';
const event = (state: string): ConsoleDelivery => ({
  event_id: "evt_0123456789abcdef",
  organisation: "Acme BV",
  type: "ping",
  state,
  attempts: 1,
  created_at: "2026-11-25T10:00:00.000Z",
  last_status: 500,
  last_error: "http_status: HTTP 500: database <down>",
});
const refused: ConsoleAttempt = {
  attempt: 1,
  url: "https://client.example/hook",
  started_at: "2026-11-25T10:00:00.000Z",
  outcome: "failed",
  status_code: 500,
  duration_ms: 12,
  error: "http_status: HTTP 500: database <down>",
  next_attempt_at: "2026-11-25T10:01:00.000Z",
};
// What the next ping or redelivery answers.
let attempt: ConsoleAttempt | null = refused;
const operations = {
  pingWebhook: async () => ({ event: event("pending"), attempt }),
  redeliverWebhook: async () => ({ event: event("pending"), attempt }),
  listAttempts: async () => [refused],
} as unknown as ConsoleOperations;
const audited: unknown[][] = [];
const database = {
  // biome-ignore lint/suspicious/noExplicitAny: a fake of the store's query, whose rows any query's shape has.
  query: async (sql: string, params?: unknown[]): Promise<{ rows: any[] }> => {
    if (sql.includes("INSERT INTO console_audit")) audited.push((params ?? []).slice(1));
    if (sql.includes("FROM webhook_events e")) return { rows: [{ ...event("pending"), payload: PAYLOAD }] };
    return { rows: [] };
  },
};
const api = createApi({
  publicOnly: true,
  logger: { info() {}, warn() {}, error() {} },
  plugins: [
    consolePlugin({
      operators: directory,
      operations,
      cases: { addNote: async () => ({ noteId: "1" }), readLetter: async () => undefined },
      database,
      sessions: memorySessionStore(),
      sessionSecret: "s".repeat(32),
    }),
  ],
});

async function loggedIn(): Promise<{ cookie: string; csrf: string }> {
  const res = await api.fetch(
    new Request("http://x/console/inloggen", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "credential=admin",
    }),
  );
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
  const page = await (await get("/webhooks/evt_0123456789abcdef", cookie)).text();
  return { cookie, csrf: /name="csrf" value="([^"]+)"/.exec(page)?.[1] as string };
}
const get = (path: string, cookie: string) =>
  api.fetch(new Request(`http://x/console${path}`, { headers: { cookie } }));
const post = (path: string, s: { cookie: string; csrf: string }, form: Record<string, string>) =>
  api.fetch(
    new Request(`http://x/console${path}`, {
      method: "POST",
      headers: { cookie: s.cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...form, csrf: s.csrf }),
    }),
  );

describe("the delivery page and the outcome of a ping", () => {
  it("sends a refused ping to its delivery page as failed, not as a green notice", async () => {
    const s = await loggedIn();
    attempt = refused;
    const res = await post("/webhooks/ping", s, { organisation: "Acme BV" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/console/webhooks/evt_0123456789abcdef?fout=ping");
    expect(audited.at(-1)).toEqual([
      "opr_a",
      "Anne",
      "Webhook gepingd",
      null,
      "Acme BV",
      "evt_0123456789abcdef: mislukt (HTTP 500)",
    ]);
    const page = await (await get("/webhooks/evt_0123456789abcdef?fout=ping", s.cookie)).text();
    expect(page).toContain(
      '<p class="notice error" role="alert">Ping niet afgeleverd: het eindpunt weigerde hem of was niet bereikbaar; zie de poging hieronder.</p>',
    );
    expect(page).not.toContain('role="status">Ping');
  });

  it("names a delivered ping and one a running dispatcher took over as such", async () => {
    const s = await loggedIn();
    attempt = { ...refused, outcome: "delivered", status_code: 204, error: null, next_attempt_at: null };
    const delivered = await post("/webhooks/ping", s, { organisation: "Acme BV" });
    expect(delivered.headers.get("location")).toBe("/console/webhooks/evt_0123456789abcdef?ok=ping");
    expect(await (await get("/webhooks/evt_0123456789abcdef?ok=ping", s.cookie)).text()).toContain(
      '<p class="notice ok" role="status">Ping afgeleverd.</p>',
    );
    attempt = null;
    const queued = await post("/webhooks/evt_0123456789abcdef/opnieuw", s, {});
    expect(queued.headers.get("location")).toBe("/console/webhooks/evt_0123456789abcdef?ok=opnieuw-gestart");
    attempt = refused;
    const failed = await post("/webhooks/evt_0123456789abcdef/opnieuw", s, {});
    expect(failed.headers.get("location")).toBe("/console/webhooks/evt_0123456789abcdef?fout=opnieuw");
  });

  it("shows the body sent and, per attempt, the status and the start of the body the endpoint answered", async () => {
    const s = await loggedIn();
    const page = await (await get("/webhooks/evt_0123456789abcdef", s.cookie)).text();
    expect(page).toContain(
      '<dd data-field="last-answer">HTTP 500: <q data-field="answer">database &lt;down&gt;</q></dd>',
    );
    expect(page).toContain(
      `<pre class="payload" data-field="payload" tabindex="0">${JSON.stringify(JSON.parse(PAYLOAD), null, 2).replaceAll('"', "&quot;")}</pre>`,
    );
    expect(page).toContain(
      "<td>Het eindpunt weigerde de gebeurtenis<br><small><code>HTTP 500: database &lt;down&gt;</code></small></td>",
    );
  });
});
