import { type ConsoleOperations, consolePlugin } from "@incasso/console";
import { createApi } from "@incasso/server";
import type { SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appStoreTargets } from "./internal/testing/store-targets.js";
import { directOperatorAccountOperations } from "./operator-accounts/operator-accounts.js";
import { createOperatorDirectory } from "./operator-accounts/operator-directory.js";

// Console sessions are kept on the server (issue 28, item 3; decision console-session-state): a
// copy of the cookie is refused after a log-out, a log-out everywhere and a revocation. With the
// app's own operator directory and the table console_sessions (migration 51), on PGlite, and on
// PostgreSQL when TEST_DATABASE_URL is set (a schema of its own, dropped after).

const targets = appStoreTargets("console_sessions");

const HOUR = 3600_000;

for (const target of targets) {
  describe(`console sessions on ${target.name}`, () => {
    let store: SqlStore;
    let drop: () => Promise<void>;
    let api: ReturnType<typeof createApi>;
    let clock = new Date("2026-11-25T09:00:00.000Z");
    const credentials = { admin: "", handler: "" };
    let handlerId = "";
    let adminId = "";
    const notes: string[] = [];

    beforeAll(async () => {
      ({ store, drop } = await target.open());
      const accounts = directOperatorAccountOperations(store, { now: () => clock });
      const admin = await accounts.createOperator({ name: "Anne Beheer", role: "admin" });
      const handler = await accounts.createOperator({ name: "Henk Behandel", role: "handler" });
      credentials.admin = admin.credential;
      credentials.handler = handler.credential;
      adminId = admin.id;
      handlerId = handler.id;
      api = createApi({
        publicOnly: true,
        logger: { info() {}, warn() {}, error() {} },
        plugins: [
          consolePlugin({
            operators: createOperatorDirectory(store),
            // Only the operator operations are called here; the note goes to `cases` below.
            operations: accounts as unknown as ConsoleOperations,
            cases: {
              addNote: async ({ text }) => {
                notes.push(text);
                return { noteId: String(notes.length) };
              },
              readLetter: async () => undefined,
            },
            database: store.database,
            sessionSecret: "k".repeat(32),
            now: () => clock,
          }),
        ],
      });
    });
    afterAll(async () => {
      await drop();
      await store.close();
    });

    const get = (path: string, cookie: string) =>
      api.fetch(new Request(`http://x${path}`, { headers: { cookie } }));
    const post = (path: string, cookie: string, form: Record<string, string>) =>
      api.fetch(
        new Request(`http://x${path}`, {
          method: "POST",
          headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: "http://x" },
          body: new URLSearchParams(form),
        }),
      );
    async function login(who: "admin" | "handler") {
      const res = await post("/console/inloggen", "", { credential: credentials[who] });
      expect(res.status).toBe(303);
      const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
      const html = await (await get("/console/udf", cookie)).text();
      const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] as string;
      return { cookie, csrf };
    }
    /** A copy of the cookie is refused: a page goes to the login, a change gets 403 and is not made. */
    async function expectEnded(s: { cookie: string; csrf: string }) {
      const page = await get("/console/udf", s.cookie);
      expect(page.status).toBe(303);
      expect(page.headers.get("location")).toBe("/console/inloggen");
      const before = notes.length;
      const change = await post("/console/zaken/2026-000001/notitie", s.cookie, {
        csrf: s.csrf,
        text: "met een oude cookie",
      });
      expect(change.status).toBe(403);
      expect(await change.text()).toContain("Uw sessie is verlopen; log opnieuw in.");
      expect(notes.length).toBe(before);
    }
    const liveRows = async (operatorId: string) =>
      (
        await store.database.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM console_sessions WHERE operator_id = $1",
          [operatorId],
        )
      ).rows[0]?.n;
    const lastAudit = async () =>
      (
        await store.database.query<Record<string, unknown>>(
          `SELECT operator_id, operator_name, action, case_number, subject, detail FROM console_audit
           ORDER BY id DESC LIMIT 1`,
        )
      ).rows[0];

    it("keeps a session as a row under the hash of its nonce, and refuses a copy of the cookie after the log-out", async () => {
      const s = await login("handler");
      const { rows } = await store.database.query<Record<string, unknown>>(
        "SELECT id, operator_id, created_at, expires_at FROM console_sessions WHERE operator_id = $1",
        [handlerId],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]?.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(s.cookie).not.toContain(rows[0]?.id as string);
      expect(new Date(rows[0]?.expires_at as string).getTime()).toBe(clock.getTime() + 8 * HOUR);
      const noted = await post("/console/zaken/2026-000001/notitie", s.cookie, {
        csrf: s.csrf,
        text: "Gebeld",
      });
      expect(noted.status).toBe(303);
      const out = await post("/console/uitloggen", s.cookie, { csrf: s.csrf });
      expect(out.status).toBe(303);
      expect(out.headers.get("location")).toBe("/console/inloggen");
      expect(await liveRows(handlerId)).toBe(0);
      await expectEnded(s);
    });

    it("ends every session of the operator with a log-out everywhere, and records it in the audit trail", async () => {
      const first = await login("handler");
      const second = await login("handler");
      const admin = await login("admin");
      expect(await liveRows(handlerId)).toBe(2);
      const out = await post("/console/uitloggen", first.cookie, { csrf: first.csrf, overal: "1" });
      expect(out.status).toBe(303);
      expect(out.headers.get("location")).toBe("/console/inloggen");
      await expectEnded(first);
      await expectEnded(second);
      expect(await lastAudit()).toEqual({
        operator_id: handlerId,
        operator_name: "Henk Behandel",
        action: "Overal uitgelogd",
        case_number: null,
        subject: handlerId,
        detail: "2 sessies beëindigd",
      });
      expect((await get("/console/udf", admin.cookie)).status).toBe(200);
    });

    it("lets an admin end all sessions of an operator from the operators page, recorded in the audit trail", async () => {
      const handler = await login("handler");
      const admin = await login("admin");
      const res = await post(`/console/operators/${handlerId}/sessies`, admin.cookie, { csrf: admin.csrf });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/console/operators?ok=sessies-beeindigd");
      await expectEnded(handler);
      expect(await lastAudit()).toEqual({
        operator_id: adminId,
        operator_name: "Anne Beheer",
        action: "Sessies beëindigd",
        case_number: null,
        subject: handlerId,
        detail: "Henk Behandel: 1 sessie",
      });
      expect((await get("/console/operators", admin.cookie)).status).toBe(200);
    });

    it("sweeps the sessions past their maximum age at a log-in", async () => {
      await login("handler");
      expect(await liveRows(handlerId)).toBe(1);
      clock = new Date(clock.getTime() + 8 * HOUR);
      await login("admin");
      expect(await liveRows(handlerId)).toBe(0);
    });

    it("refuses a copy of the cookie after a revocation in the console, and after one with the CLI", async () => {
      const handler = await login("handler");
      const admin = await login("admin");
      const revoked = await post(`/console/operators/${handlerId}/intrekken`, admin.cookie, {
        csrf: admin.csrf,
      });
      expect(revoked.status).toBe(303);
      expect(await liveRows(handlerId)).toBe(0);
      await expectEnded(handler);
      // The CLI revokes through the same accounts; the directory refuses the operator at once.
      const other = await directOperatorAccountOperations(store, { now: () => clock }).createOperator({
        name: "Els",
      });
      const res = await post("/console/inloggen", "", { credential: other.credential });
      const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
      expect((await get("/console/udf", cookie)).status).toBe(200);
      await directOperatorAccountOperations(store, { now: () => clock }).revokeOperator({ id: other.id });
      expect((await get("/console/udf", cookie)).status).toBe(303);
    });
  });
}
