import { rmSync } from "node:fs";
import { listCases, type Operator, type OperatorDirectory } from "@incasso/console";
import { newDataDir } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeActivePdf, makeTextPdf } from "../../pdf-guard/src/internal/testing/fixtures.js";
import { createIncasso, type Incasso } from "./create-incasso.js";

const quiet = { info() {}, warn() {}, error() {} };
const ADMIN: Operator = { id: "opr_admin000000001", name: "Anne Beheer", role: "admin" };
const HANDLER: Operator = { id: "opr_handler0000001", name: "Henk Behandel", role: "handler" };
const revoked = new Set<string>();
// A fake of the app's operator directory: two credentials and one that is locked out.
const directory: OperatorDirectory = {
  async login(credential) {
    if (credential === "cred-admin") return { ok: true, operator: ADMIN };
    if (credential === "cred-handler") return { ok: true, operator: HANDLER };
    if (credential === "cred-locked")
      return { ok: false, reason: "locked", lockedUntil: new Date("2026-11-25T20:15:00Z") };
    return { ok: false, reason: "invalid" };
  },
  async get(id) {
    if (revoked.has(id)) return null;
    return [ADMIN, HANDLER].find((o) => o.id === id) ?? null;
  },
};

let dir: string;
let incasso: Incasso;
let apiKey: string;
let caseNumber: string;

beforeAll(async () => {
  dir = await newDataDir("incasso-console-");
  incasso = await createIncasso(
    { dataDir: dir },
    {
      startLines: false,
      logger: quiet,
      env: {},
      webhooks: false,
      letters: false,
      operatorEndpoint: false,
      // As a function of the store, the way the app's own directory of operators is made.
      operators: () => directory,
    },
  );
  // A live key: a test-mode order is checked but opens no case.
  apiKey = (await incasso.operations.createKey({ organisation: "Console BV", mode: "live" })).key;
  // Without an IBAN no 14-day letter is made (decision case-system-letter-details).
  await incasso.operations.setLetterDetails({
    organisation: "Console BV",
    details: {
      sender_name: "Console BV",
      street: "Kerkstraat 1",
      postal_code: "1234 AB",
      city: "Utrecht",
      iban: "NL91ABNA0417164300",
    },
  });
  const placed = await incasso.api.fetch(
    new Request("http://x/api/v1/orders", {
      method: "POST",
      headers: {
        authorization: `Bearer ${apiKey}`,
        "content-type": "application/json",
        "idempotency-key": "console-1",
      },
      body: JSON.stringify({
        type: "pre-incasso",
        reference: "REF-CONSOLE-1",
        debtors: [
          {
            type: "business",
            company_name: "Jansen Metaal B.V.",
            customer_number: "K-4711",
            address: { street: "Teststraat", house_number: "10", postal_code: "9999ZZ", city: "Testdorp" },
          },
        ],
        invoices: [
          { invoice_number: "F-1", invoice_date: "2026-09-01", payment_term_days: 14, amount_cents: 125000 },
        ],
      }),
    }),
  );
  expect(placed.status).toBe(201);
  caseNumber = (await incasso.operations.listCases({})).data[0]?.case_number as string;
});

afterAll(async () => {
  await incasso?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A browser in miniature: keeps the session cookie and reads the CSRF token of the last page. */
function session() {
  let cookie = "";
  let csrf = "";
  const keep = (res: Response) => {
    const set = res.headers.get("set-cookie");
    if (set) cookie = set.split(";")[0] as string;
  };
  return {
    get cookie() {
      return cookie;
    },
    async get(path: string) {
      const res = await incasso.api.fetch(new Request(`http://x${path}`, { headers: { cookie } }));
      keep(res);
      const html = res.status === 200 ? await res.clone().text() : "";
      csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? csrf;
      return res;
    },
    async post(path: string, fields: Record<string, string>, withToken = true) {
      const body = new URLSearchParams({ ...fields, ...(withToken ? { csrf } : {}) });
      const res = await incasso.api.fetch(
        new Request(`http://x${path}`, {
          method: "POST",
          headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: "http://x" },
          body,
        }),
      );
      keep(res);
      return res;
    },
  };
}

async function loggedIn(credential: string) {
  const s = session();
  const res = await s.post("/console/inloggen", { credential }, false);
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe("/console/zaken");
  return s;
}

describe("the operator console in createIncasso", () => {
  it("sends a visitor without a session to the login page, and refuses wrong and locked-out credentials", async () => {
    const s = session();
    const list = await s.get("/console/zaken");
    expect(list.status).toBe(303);
    expect(list.headers.get("location")).toBe("/console/inloggen");
    const wrong = await s.post("/console/inloggen", { credential: "nope" }, false);
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("Onbekende of ingetrokken inloggegevens.");
    const locked = await s.post("/console/inloggen", { credential: "cred-locked" }, false);
    expect(locked.status).toBe(429);
    expect(await locked.text()).toContain("Te veel mislukte pogingen; probeer het na 21:15 opnieuw.");
    expect(Object.keys(incasso.api.openapi().paths).some((p) => p.includes("console"))).toBe(false);
  });

  it("logs in with an HttpOnly, SameSite=Strict cookie limited to /console, Secure on https", async () => {
    const res = await incasso.api.fetch(
      new Request("https://x/console/inloggen", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "credential=cred-admin",
      }),
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("set-cookie")).toMatch(
      /^incasso_console=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}; Path=\/console; Max-Age=1800; HttpOnly; SameSite=Strict; Secure$/,
    );
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("finds the case made through the API by case number, reference, debtor name, customer number and status", async () => {
    const s = await loggedIn("cred-handler");
    for (const q of [caseNumber, "REF-CONSOLE-1", "jansen", "K-4711"]) {
      const res = await s.get(`/console/zaken?q=${encodeURIComponent(q)}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const html = await res.text();
      expect(html).toContain(`href="/console/zaken/${caseNumber}"`);
      expect(html).toContain("€ 1.250,00");
    }
    expect(await (await s.get("/console/zaken?q=Pietersen")).text()).toContain("Geen zaken gevonden.");
    expect(await (await s.get("/console/zaken?status=Gesloten")).text()).toContain("Geen zaken gevonden.");
    expect((await s.get("/console/zaken?na=nonsense")).status).toBe(400);
  });

  it("finds the same cases whether a name's start is collected through the indexes or the cases are walked", async () => {
    const db = incasso.store.database;
    for (const q of ["JANSEN", caseNumber, "K-4711", "REF-CONSOLE-1"]) {
      const few = await listCases(db, { q, limit: 25 });
      const walked = await listCases(db, { q, limit: 25, walkFrom: 1 });
      expect(walked.map((r) => r.case_number)).toEqual([caseNumber]);
      expect(few.map((r) => r.case_number)).toEqual([caseNumber]);
    }
    expect(await listCases(db, { q: "Pietersen", limit: 25, walkFrom: 1 })).toEqual([]);
  });

  it("books a payment through the CLI's operation, shows the new balance and records who booked it", async () => {
    const s = await loggedIn("cred-handler");
    const before = await (await s.get(`/console/zaken/${caseNumber}`)).text();
    expect(before).toContain("Jansen Metaal B.V.");
    const paid = await s.post(`/console/zaken/${caseNumber}/betaling`, {
      amount: "250,00",
      payment_date: "20-11-2026",
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`/console/zaken/${caseNumber}?ok=betaling`);
    const after = await (await s.get(`/console/zaken/${caseNumber}?ok=betaling`)).text();
    expect(after).toContain("Betaling geboekt.");
    expect(after).toContain('<td>20-11-2026</td><td class="num">€ 250,00</td>');
    expect(after).toMatch(/Henk Behandel<\/td><td>Betaling geboekt<\/td><td>€ 250,00 op 20-11-2026/);
    const view = await incasso.operations.showCase({ case_number: caseNumber });
    expect(view.payments.map((p) => p.amount_cents)).toEqual([25000]);
    const bad = await s.post(`/console/zaken/${caseNumber}/betaling`, { amount: "veel" });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain("Vul een bedrag in, zoals 1.234,56.");
  });

  it("refuses a change without the CSRF token, or with another session's, with 403 and changes nothing", async () => {
    const s = await loggedIn("cred-handler");
    await s.get(`/console/zaken/${caseNumber}`);
    const without = await s.post(`/console/zaken/${caseNumber}/notitie`, { text: "zonder token" }, false);
    expect(without.status).toBe(403);
    const other = await loggedIn("cred-handler");
    await other.get("/console/zaken");
    const foreignToken = await s.post(
      `/console/zaken/${caseNumber}/notitie`,
      { text: "fout token", csrf: "x".repeat(43) },
      false,
    );
    expect(foreignToken.status).toBe(403);
    const view = await incasso.operations.showCase({ case_number: caseNumber });
    expect(view.notes.filter((n) => n.text.includes("token"))).toEqual([]);
    const ok = await s.post(`/console/zaken/${caseNumber}/notitie`, { text: "Debiteur gebeld" });
    expect(ok.status).toBe(303);
  });

  it("refuses a handler the keys and organisations pages, and gives an admin them", async () => {
    const handler = await loggedIn("cred-handler");
    const keys = await handler.get("/console/sleutels");
    expect(keys.status).toBe(403);
    expect(await keys.text()).toContain("alleen voor beheerders");
    expect((await handler.get("/console/organisaties")).status).toBe(403);
    expect((await handler.post("/console/sleutels", { organisation: "X", mode: "test" })).status).toBe(403);
    const admin = await loggedIn("cred-admin");
    expect((await admin.get("/console/sleutels")).status).toBe(200);
    expect(await (await admin.get("/console/organisaties")).text()).toContain("Console BV");
  });

  it("lets an admin set an organisation's letter details through the CLI's operation, and refuses a wrong IBAN in Dutch, keeping what was typed", async () => {
    const admin = await loggedIn("cred-admin");
    const page = await (await admin.get("/console/organisaties")).text();
    expect(page).toContain('value="NL91ABNA0417164300"');
    const fields = {
      organisation: "Console BV",
      sender_name: "Console Incasso B.V.",
      street: "Kerkstraat 1",
      postal_code: "1234 AB",
      city: "Utrecht",
      iban: "NL91 ABNA 0417 1643 00",
      bic: "",
      kvk_number: "12345678",
      phone: "",
      email: "",
    };
    const saved = await admin.post("/console/organisaties/briefgegevens", fields);
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe("/console/organisaties?ok=briefgegevens");
    expect(await incasso.operations.showLetterDetails({ organisation: "Console BV" })).toMatchObject({
      sender_name: "Console Incasso B.V.",
      iban: "NL91ABNA0417164300",
      kvk_number: "12345678",
      bic: null,
    });
    const typed = {
      ...fields,
      sender_name: "Nieuwe Naam B.V.",
      street: "Nieuwstraat 9",
      postal_code: "5678 CD",
      city: "Zwolle",
      iban: "NL00 ABNA 0417 1643 00",
      bic: "ABNANL2A",
      kvk_number: "87654321",
      phone: "030 123 45 67",
      email: "post@nieuw.example",
    };
    const wrong = await admin.post("/console/organisaties/briefgegevens", typed);
    expect(wrong.status).toBe(422);
    const refused = await wrong.text();
    expect(refused).toContain(
      '<p class="notice error" role="alert">Briefgegevens niet opgeslagen. Het IBAN klopt niet: controleer de landcode, de twee controlecijfers en het rekeningnummer.</p>',
    );
    // Every field of the refused form shows what was typed (issue 31, item 5).
    const start = refused.indexOf("<h3>Briefgegevens Console BV</h3>");
    const form = refused.slice(start, refused.indexOf("</form>", start));
    const shown = Object.fromEntries(
      [...form.matchAll(/<input id="([a-z_]+)-\d+" name="[a-z_]+" value="([^"]*)"/g)].map((m) => [
        m[1],
        m[2],
      ]),
    );
    const { organisation: _organisation, ...expected } = typed;
    expect(shown).toEqual(expected);
    expect((await incasso.operations.showLetterDetails({ organisation: "Console BV" })).iban).toBe(
      "NL91ABNA0417164300",
    );
  });

  it("creates a key shown once and revokes it, after which the key answers 401", async () => {
    const admin = await loggedIn("cred-admin");
    await admin.get("/console/sleutels");
    const created = await admin.post("/console/sleutels", {
      organisation: "Console BV",
      mode: "test",
      visibility: "own",
    });
    expect(created.status).toBe(201);
    const html = await created.text();
    const key = /data-field="new-key">([^<]+)</.exec(html)?.[1] as string;
    expect(key).toMatch(/^svc_test_/);
    const ping = (k: string) =>
      incasso.api.fetch(new Request("http://x/api/v1/orders", { headers: { authorization: `Bearer ${k}` } }));
    expect((await ping(key)).status).toBe(200);
    const id = (await incasso.operations.listKeys()).find(
      (k) => key.endsWith(k.hint.slice(-4)) && !k.revoked_at,
    )?.id as string;
    const revokedRes = await admin.post(`/console/sleutels/${id}/intrekken`, {});
    expect(revokedRes.status).toBe(303);
    expect((await ping(key)).status).toBe(401);
    expect(await (await admin.get("/console/sleutels")).text()).not.toContain(key);
  });

  it("picks a new key's organisation from the existing ones, makes a new one only on purpose, and shows when each key was last used", async () => {
    const admin = await loggedIn("cred-admin");
    const page = await (await admin.get("/console/sleutels")).text();
    expect(page).toContain('<select id="organisation" name="organisation">');
    expect(page).toContain('<option value="Console BV" selected>Console BV</option>');
    expect(page).toContain('<option value="">Nieuwe organisatie…</option>');
    const before = (await incasso.operations.listKeys()).length;
    const organisations = async () => (await incasso.store.organisations.list()).map((o) => o.name).sort();
    const known = await organisations();
    // `console bv` typed as a new organisation beside `Console BV`: refused, the form as typed.
    const twin = await admin.post("/console/sleutels", {
      organisation: "",
      new_organisation: "console  bv",
      mode: "live",
      visibility: "organisation",
      creditor_management: "1",
    });
    expect(twin.status).toBe(422);
    const refused = await twin.text();
    expect(refused).toContain(
      '<p class="notice error" role="alert">Er is al een organisatie Console BV; kies haar in de lijst.</p>',
    );
    expect(refused).toContain('<option value="" selected>Nieuwe organisatie…</option>');
    expect(refused).toContain('name="new_organisation" maxlength="200" value="console  bv"');
    expect(refused).toContain('<option value="live" selected>live</option>');
    expect(refused).toContain('<option value="organisation" selected>hele organisatie</option>');
    expect(refused).toContain('name="creditor_management" value="1" checked>');
    // A name not in the list is not a choice.
    const unknown = await admin.post("/console/sleutels", { organisation: "Onbekend BV", mode: "test" });
    expect(unknown.status).toBe(422);
    expect(await unknown.text()).toContain('role="alert">Kies een organisatie uit de lijst.</p>');
    expect(await organisations()).toEqual(known);
    expect((await incasso.operations.listKeys()).length).toBe(before);
    // On purpose: "new organisation" and its name.
    const made = await admin.post("/console/sleutels", {
      organisation: "",
      new_organisation: "Nieuwe Klant BV",
      mode: "test",
    });
    expect(made.status).toBe(201);
    const shown = await made.text();
    expect(shown).toContain(
      '<button type="button" class="copy" data-copy="new-key" hidden>Kopiëren</button>',
    );
    expect(await organisations()).toEqual([...known, "Nieuwe Klant BV"].sort());
    // The key of the orders placed above was used; the new one never. Recorded to the minute.
    const keys = await incasso.operations.listKeys();
    const used = keys.find((k) => apiKey.endsWith(k.hint.slice(-4)) && k.mode === "live");
    expect(used?.last_used_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$/);
    const fresh = keys.find((k) => k.organisation === "Nieuwe Klant BV");
    expect(fresh?.last_used_at).toBeNull();
    const list = await (await admin.get("/console/sleutels")).text();
    const row = (id: string) =>
      list.slice(
        list.indexOf(`<code>${id}</code>`),
        list.indexOf("</tr>", list.indexOf(`<code>${id}</code>`)),
      );
    expect(row(used?.id as string)).toMatch(/data-field="last-used">\d{2}-\d{2}-\d{4} \d{2}:\d{2}</);
    expect(row(fresh?.id as string)).toContain('data-field="last-used">nooit<');
  });

  it("shows a failed letter job on its case with a retry, and lists it with open tasks and failed deliveries newest first on the needs attention page", async () => {
    const placed = await incasso.api.fetch(
      new Request("http://x/api/v1/orders", {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({
          type: "pre-incasso",
          reference: "REF-ATTENTION",
          debtors: [
            {
              type: "business",
              company_name: "Aandacht B.V.",
              customer_number: "K-ATT",
              address: { street: "Kade", house_number: "1", postal_code: "9999ZZ", city: "Testdorp" },
            },
          ],
          invoices: [
            {
              invoice_number: "F-ATT",
              invoice_date: "2026-09-01",
              payment_term_days: 14,
              amount_cents: 50000,
            },
          ],
        }),
      }),
    );
    expect(placed.status).toBe(201);
    const order = (await placed.json()) as { id: string; case: { case_number: string } };
    const attentionCase = order.case.case_number;
    const db = incasso.store.database;
    // No letter runner in this service: the job waits. Failed as a runner records a refusal.
    await db.query(
      `UPDATE case_letter_jobs SET state = 'failed', attempts = 1, due_at = NULL,
         last_error = 'letter_details_missing: Console BV has no IBAN.', updated_at = '2026-11-20T10:00:00Z'
       WHERE order_id = $1`,
      [order.id],
    );
    // A failed delivery, older, and an open task, newest.
    const org = (await incasso.store.organisations.findByName("Console BV"))?.id as string;
    await db.query(
      `INSERT INTO webhook_events (id, organisation_id, type, payload, created_at, state, attempts, last_status, last_error, failed_at)
       VALUES ('evt_attention00000001', $1, 'case.updated', '{"type":"case.updated"}', '2026-11-19T10:00:00Z', 'failed', 8, 500,
         'http_status: HTTP 500: kapot', '2026-11-19T12:00:00Z')`,
      [org],
    );
    const hold = await incasso.api.fetch(
      new Request(`http://x/api/v1/orders/${order.id}/hold`, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ reason: "Debiteur belt terug" }),
      }),
    );
    expect(hold.status).toBe(202);

    const s = await loggedIn("cred-handler");
    const casePage = await (await s.get(`/console/zaken/${attentionCase}`)).text();
    expect(casePage).toContain('<h2 id="brieftaken">14-dagenbrief nog niet gemaakt</h2>');
    expect(casePage).toContain(`<tr data-letter-job="${order.id}" data-state="failed">`);
    expect(casePage).toContain(
      "De organisatie heeft geen IBAN in haar briefgegevens; de brief wordt gemaakt zodra het IBAN is ingesteld.",
    );
    expect(casePage).toContain(
      `action="/console/zaken/${attentionCase}/brieftaken/${order.id}/opnieuw" class="inline">`,
    );
    // The task's action in Dutch, its code kept as data.
    expect(casePage).toContain('<span data-action="hold">Aanhouden</span>');
    expect(casePage).toContain('href="/console/aandacht"');

    const attention = await (await s.get("/console/aandacht")).text();
    expect(attention).toContain("<h1>Aandacht nodig</h1>");
    const kinds = [...attention.matchAll(/<tr data-kind="(task|letter|delivery)">/g)].map((m) => m[1]);
    // The hold is newest (now), the letter failed on 20 November, the delivery on 19 November.
    expect(kinds.slice(0, 1)).toEqual(["task"]);
    expect(kinds.indexOf("letter")).toBeLessThan(kinds.indexOf("delivery"));
    expect(kinds.filter((k) => k === "delivery")).toHaveLength(1);
    expect(attention).toContain(
      'href="/console/webhooks/evt_attention00000001"><code>evt_attention00000001</code></a>',
    );
    expect(attention).toContain("Het eindpunt weigerde de gebeurtenis (HTTP 500)");

    // Retried from the list: due now with fresh attempts, back on the list's page.
    const retried = await s.post(`/console/zaken/${attentionCase}/brieftaken/${order.id}/opnieuw`, {
      terug: "aandacht",
    });
    expect(retried.status).toBe(303);
    expect(retried.headers.get("location")).toBe("/console/aandacht?ok=brief-opnieuw");
    expect((await incasso.operations.listLetterJobs({ case_number: attentionCase })).data).toMatchObject([
      { order_id: order.id, state: "pending", attempts: 0 },
    ]);
    // Under another case's URL nothing is retried.
    const elsewhere = await s.post(`/console/zaken/${caseNumber}/brieftaken/${order.id}/opnieuw`, {});
    expect(elsewhere.status).toBe(422);
    expect(await elsewhere.text()).toContain(
      "Er is geen briefopdracht voor deze order bij deze zaak; de brief is al gemaakt.",
    );
    const audit = await db.query<{ action: string; subject: string }>(
      "SELECT action, subject FROM console_audit WHERE case_number = $1 ORDER BY id",
      [attentionCase],
    );
    expect(audit.rows).toEqual([{ action: "14-dagenbrief opnieuw geprobeerd", subject: order.id }]);
  });

  it("resolves tasks done and rejected with a reason, changes the status, makes the letter, and closes the case", async () => {
    const orderId = (await incasso.operations.showCase({ case_number: caseNumber })).orders[0]
      ?.order_id as string;
    const control = (action: string, key: string) =>
      incasso.api.fetch(
        new Request(`http://x/api/v1/orders/${orderId}/${action}`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${apiKey}`,
            "content-type": "application/json",
            "idempotency-key": key,
          },
          body: JSON.stringify({ reason: `verzoek ${key}` }),
        }),
      );
    expect((await control("hold", "hold-1")).status).toBe(202);
    expect((await control("hold", "hold-2")).status).toBe(202);
    const s = await loggedIn("cred-handler");
    await s.get(`/console/zaken/${caseNumber}`);
    const open = (await incasso.operations.showCase({ case_number: caseNumber })).tasks.filter(
      (t) => t.status === "open",
    );
    expect(open.length).toBe(2);
    const [first, second] = open as [(typeof open)[number], (typeof open)[number]];
    const noReason = await s.post(`/console/zaken/${caseNumber}/taken/${first.id}`, {
      outcome: "rejected",
      reason: "",
    });
    expect(noReason.status).toBe(422);
    expect(await noReason.text()).toContain("Geef bij afwijzen een reden.");
    expect(
      (
        await s.post(`/console/zaken/${caseNumber}/taken/${first.id}`, {
          outcome: "done",
          reason: "Gepauzeerd",
        })
      ).status,
    ).toBe(303);
    expect(
      (
        await s.post(`/console/zaken/${caseNumber}/taken/${second.id}`, {
          outcome: "rejected",
          reason: "Dubbel verzoek",
        })
      ).status,
    ).toBe(303);
    // The same outcome again is a no-op of the operation; another outcome is refused.
    const again = await s.post(`/console/zaken/${caseNumber}/taken/${first.id}`, {
      outcome: "rejected",
      reason: "toch niet",
    });
    expect(again.status).toBe(422);
    expect(await again.text()).toContain("Deze taak is al afgehandeld of afgewezen.");
    expect((await s.post(`/console/zaken/${caseNumber}/status`, { status: "In behandeling" })).status).toBe(
      303,
    );
    expect((await s.post(`/console/zaken/${caseNumber}/status`, { status: "Onzin" })).status).toBe(422);
    expect((await s.post(`/console/zaken/${caseNumber}/brief`, {})).status).toBe(303);
    const view = await incasso.operations.showCase({ case_number: caseNumber });
    expect(view.tasks.map((t) => [t.status, t.resolution])).toEqual([
      ["done", "Gepauzeerd"],
      ["rejected", "Dubbel verzoek"],
    ]);
    expect(view.status).toBe("In behandeling");
    const letter = view.letters[0] as { id: string; filename: string };
    const pdf = await s.get(`/console/zaken/${caseNumber}/brieven/${letter.id}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toBe(`attachment; filename="${letter.filename}"`);
    expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
    const page = await (await s.get(`/console/zaken/${caseNumber}`)).text();
    expect(page).toMatch(/Henk Behandel<\/td><td>Taak afgewezen<\/td><td>Dubbel verzoek/);
    expect(page).toMatch(/Henk Behandel<\/td><td>14-dagenbrief gemaakt<\/td>/);
    expect((await s.post(`/console/zaken/${caseNumber}/sluiten`, {})).status).toBe(303);
    expect((await incasso.operations.showCase({ case_number: caseNumber })).open).toBe(false);
    const closedPage = await (await s.get(`/console/zaken/${caseNumber}`)).text();
    expect(closedPage).not.toContain("/betaling");
  });

  it("resolves a task only under its own case's URL: another case's answers 404 and changes and records nothing", async () => {
    // Two more cases, each with a hold task (a control request of its order).
    const placeWithHold = async (n: number) => {
      const placed = await incasso.api.fetch(
        new Request("http://x/api/v1/orders", {
          method: "POST",
          headers: {
            authorization: `Bearer ${apiKey}`,
            "content-type": "application/json",
            "idempotency-key": `task-case-${n}`,
          },
          body: JSON.stringify({
            type: "pre-incasso",
            reference: `REF-TASK-${n}`,
            debtors: [
              {
                type: "business",
                company_name: `Taak ${n} B.V.`,
                customer_number: `T-${n}`,
                address: {
                  street: "Takenweg",
                  house_number: String(n),
                  postal_code: "9999ZZ",
                  city: "Testdorp",
                },
              },
            ],
            invoices: [
              {
                invoice_number: `T-${n}`,
                invoice_date: "2026-09-01",
                payment_term_days: 14,
                amount_cents: 5000,
              },
            ],
          }),
        }),
      );
      expect(placed.status).toBe(201);
      const orderId = ((await placed.json()) as { id: string }).id;
      const held = await incasso.api.fetch(
        new Request(`http://x/api/v1/orders/${orderId}/hold`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${apiKey}`,
            "content-type": "application/json",
            "idempotency-key": `task-hold-${n}`,
          },
          body: JSON.stringify({ reason: "even wachten" }),
        }),
      );
      expect(held.status).toBe(202);
      const found = (await incasso.operations.listCases({})).data.find(
        (c) => c.reference === `REF-TASK-${n}`,
      );
      const number = found?.case_number as string;
      const task = (await incasso.operations.showCase({ case_number: number })).tasks[0] as { id: string };
      return { caseNumber: number, taskId: task.id };
    };
    const a = await placeWithHold(1);
    const b = await placeWithHold(2);
    expect(a.caseNumber).not.toBe(b.caseNumber);
    const audit = async (number: string) =>
      (
        await incasso.store.database.query<{ action: string; subject: string }>(
          "SELECT action, subject FROM console_audit WHERE case_number = $1 ORDER BY id",
          [number],
        )
      ).rows;
    const s = await loggedIn("cred-handler");
    await s.get(`/console/zaken/${a.caseNumber}`);
    const forms: Record<string, string>[] = [
      { outcome: "done" },
      { outcome: "rejected", reason: "Niet nodig" },
    ];
    for (const form of forms) {
      const wrong = await s.post(`/console/zaken/${a.caseNumber}/taken/${b.taskId}`, form);
      expect(wrong.status).toBe(404);
      expect(wrong.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const html = await wrong.text();
      expect(html).toContain("<h1>Niet gevonden</h1>");
      expect(html).toContain(`Er is geen taak ${b.taskId} bij zaak ${a.caseNumber}.`);
    }
    expect((await incasso.operations.showCase({ case_number: b.caseNumber })).tasks[0]?.status).toBe("open");
    expect(await audit(a.caseNumber)).toEqual([]);
    expect(await audit(b.caseNumber)).toEqual([]);
    const right = await s.post(`/console/zaken/${b.caseNumber}/taken/${b.taskId}`, { outcome: "done" });
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe(`/console/zaken/${b.caseNumber}?ok=taak`);
    expect((await incasso.operations.showCase({ case_number: b.caseNumber })).tasks[0]?.status).toBe("done");
    expect(await audit(b.caseNumber)).toEqual([{ action: "Taak afgehandeld", subject: b.taskId }]);
    expect(await audit(a.caseNumber)).toEqual([]);
  });

  it("refuses a post from another origin, a body that is not a form, and logs out", async () => {
    const s = await loggedIn("cred-handler");
    await s.get("/console/zaken");
    const cookie = s.cookie;
    const foreign = await incasso.api.fetch(
      new Request("http://x/console/uitloggen", {
        method: "POST",
        headers: {
          cookie,
          "content-type": "application/x-www-form-urlencoded",
          origin: "https://evil.example",
        },
        body: "csrf=x",
      }),
    );
    expect(foreign.status).toBe(403);
    const json = await incasso.api.fetch(
      new Request("http://x/console/uitloggen", {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: "{}",
      }),
    );
    expect(json.status).toBe(415);
    const out = await s.post("/console/uitloggen", {});
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/console/inloggen");
    expect(out.headers.get("set-cookie")).toBe(
      "incasso_console=; Path=/console; Max-Age=0; HttpOnly; SameSite=Strict",
    );
    expect((await s.get("/console/zaken")).status).toBe(303);
  });

  it("logs a revoked operator out at once", async () => {
    const s = await loggedIn("cred-handler");
    expect((await s.get("/console/zaken")).status).toBe(200);
    revoked.add(HANDLER.id);
    try {
      const res = await s.get("/console/zaken");
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/console/inloggen");
    } finally {
      revoked.delete(HANDLER.id);
    }
  });

  it("names the attachments with active content on the case page, with every order's warnings", async () => {
    const pdf = async (bytes: Promise<Uint8Array>) => Buffer.from(await bytes).toString("base64");
    const placed = await incasso.api.fetch(
      new Request("http://x/api/v1/orders", {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({
          type: "pre-incasso",
          debtors: [
            {
              type: "business",
              company_name: "Actief Papier B.V.",
              customer_number: "K-9000",
              address: { street: "Teststraat", house_number: "12", postal_code: "9999ZZ", city: "Testdorp" },
            },
          ],
          invoices: [
            { invoice_number: "F-9", invoice_date: "2026-09-01", payment_term_days: 14, amount_cents: 50000 },
          ],
          attachments: [
            { filename: "factuur.pdf", content_base64: await pdf(makeTextPdf({ pages: [["Factuur F-9"]] })) },
            {
              filename: "script.pdf",
              content_base64: await pdf(makeActivePdf("open-action-javascript")),
            },
          ],
        }),
      }),
    );
    expect(placed.status).toBe(201);
    const order = (await placed.json()) as { id: string; case: { case_number: string }; warnings: unknown[] };
    const message =
      "Bijlage script.pdf (attachments[1]) bevat actieve inhoud: JavaScript. Het bestand is ongewijzigd aangenomen; de opdracht is wel verwerkt.";
    const s = await loggedIn("cred-handler");
    const page = await (await s.get(`/console/zaken/${order.case.case_number}`)).text();
    expect(page).toContain(
      `<section class="notice warning" role="note" aria-labelledby="actieve-inhoud" data-warning="pdf_active_content">
<h2 id="actieve-inhoud">Let op: bijlagen met actieve inhoud</h2>
<ul><li>${message} <span class="muted">Order <code>${order.id}</code></span></li></ul>`,
    );
    expect(page).toContain(
      `<td><span class="warning" data-warning="pdf_active_content"><code>pdf_active_content</code> ${message}</span></td>`,
    );
    // A case whose orders had no such warning shows no notice.
    const other = await (await s.get(`/console/zaken/${caseNumber}`)).text();
    expect(other).not.toContain("actieve-inhoud");
    expect(other).toContain('<th scope="col">Waarschuwingen</th>');
  });
});
