import { createHmac } from "node:crypto";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { createIncasso, type Incasso } from "@incasso/app";
import { listen } from "@incasso/server/node";
import { newDataDir } from "@incasso/test-utils";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeActivePdf } from "../../packages/pdf-guard/src/internal/testing/fixtures.js";
import { launchChromium, runBrowserTests, seriousViolations } from "../pages/chromium.js";

// The operator console as a handler and an admin meet it (issue 19, item 5): in Debian's
// Chromium, against the service as createIncasso() composes it, with a local webhook receiver.

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const quiet = { info() {}, warn() {}, error() {} };
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

interface Received {
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

describe.skipIf(!runBrowserTests)("the operator console in Chromium", { timeout: 120_000 }, () => {
  let dir: string;
  let incasso: Incasso;
  let origin: string;
  let server: ReturnType<typeof listen> extends Promise<infer T> ? T : never;
  let receiver: Server;
  let receiverUrl: string;
  let secret: string;
  const received: Received[] = [];
  // What the receiver answers: 500 lets a delivery fail, until a test sets it back.
  let receiverStatus = 204;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const elsewhere: string[] = [];
  let liveKey: string;
  // Credentials of operators made as `incasso operators create` makes them: the app's own
  // directory checks them, with its lock-out.
  const credentials: Record<"admin" | "handler", string> = { admin: "", handler: "" };
  const shots = process.env.INCASSO_SCREENSHOTS;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({ body: Buffer.concat(chunks).toString("utf8"), headers: req.headers });
        // A refusal says why, as receivers do; the console shows the start of it.
        res.writeHead(receiverStatus).end(receiverStatus >= 300 ? "geweigerd door de ontvanger" : undefined);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    dir = await newDataDir("incasso-console-browser-");
    incasso = await createIncasso(
      { dataDir: dir },
      {
        startLines: false,
        logger: quiet,
        env: {},
        letters: false,
        operatorEndpoint: false,
        webhooks: { allowPrivateTargets: true, pollIntervalMs: 100 },
      },
    );
    server = await listen(incasso.api, { port: 0, host: "127.0.0.1" });
    origin = new URL(server.url).origin;
    credentials.admin = (
      await incasso.operations.createOperator({ name: "Anne Beheer", role: "admin" })
    ).credential;
    credentials.handler = (await incasso.operations.createOperator({ name: "Henk Behandel" })).credential;
    liveKey = (await incasso.operations.createKey({ organisation: "Browser BV", mode: "live" })).key;
    // Without an IBAN no 14-day letter is made; the letter prints it (decision case-system-letter-details).
    await incasso.operations.setLetterDetails({
      organisation: "Browser BV",
      details: {
        sender_name: "Browser BV",
        street: "Kerkstraat 1",
        postal_code: "1234 AB",
        city: "Utrecht",
        iban: "NL91ABNA0417164300",
      },
    });
    secret = (await incasso.operations.setWebhook({ organisation: "Browser BV", url: receiverUrl }))
      .secret as string;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    server?.server.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.server.close(() => resolve()) : resolve()));
    await incasso?.stop();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function loggedIn(who: "admin" | "handler"): Promise<Page> {
    const page = await loginPage();
    await page.fill("#credential", credentials[who]);
    await page.click("button[type=submit]");
    await page.waitForURL(`${origin}/console/zaken`);
    return page;
  }

  async function loginPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "nl-NL" });
    contexts.push(context);
    await context.route("**/*", (route) => {
      const url = new URL(route.request().url());
      // axe-core is served from the console's own origin, so the pages' CSP stays in force.
      if (url.pathname === "/__axe.js")
        return route.fulfill({ body: axeSource, contentType: "text/javascript" });
      if (url.origin !== origin) {
        elsewhere.push(url.href);
        return route.abort();
      }
      return route.continue();
    });
    const page = await context.newPage();
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto(`${origin}/console`);
    expect(new URL(page.url()).pathname).toBe("/console/inloggen");
    return page;
  }

  async function placeOrder(
    reference: string,
    company: string,
    attachments: { filename: string; content_base64: string }[] = [],
  ): Promise<string> {
    const res = await fetch(`${origin}/api/v1/orders`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${liveKey}`,
        "content-type": "application/json",
        "idempotency-key": reference,
      },
      body: JSON.stringify({
        type: "pre-incasso",
        reference,
        debtors: [
          {
            type: "business",
            company_name: company,
            customer_number: `K-${reference}`,
            address: { street: "Teststraat", house_number: "10", postal_code: "9999ZZ", city: "Testdorp" },
          },
        ],
        invoices: [
          {
            invoice_number: `F-${reference}`,
            invoice_date: "2026-09-01",
            payment_term_days: 14,
            amount_cents: 125000,
          },
        ],
        ...(attachments.length > 0 ? { attachments } : {}),
      }),
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { case: { case_number: string | null } };
    return body.case.case_number as string;
  }

  it("logs in, finds a case made through the API, books a payment and sees the balance and a signed payment.received", async () => {
    const caseNumber = await placeOrder("BRW-1", "Jansen Metaal B.V.");
    expect(caseNumber).toMatch(/^\d{4}-\d{6}$/);
    const page = await loggedIn("handler");
    await page.fill("#q", "jansen");
    await page.click("form.search button");
    await page.click(`a[href="/console/zaken/${caseNumber}"]`);
    await page.waitForURL(`${origin}/console/zaken/${caseNumber}`);
    expect(await page.textContent("h1")).toBe(`Zaak ${caseNumber}`);
    const before = await page.textContent("[data-field=balance-due]");
    await page.fill("#amount", "100,00");
    await page.fill("#payment_date", "20-11-2026");
    await page.click("form[action$='/betaling'] button");
    await page.waitForURL(/ok=betaling/);
    expect(await page.textContent("[role=status]")).toBe("Betaling geboekt.");
    const after = await page.textContent("[data-field=balance-due]");
    const cents = (text: string | null) => Number((text ?? "").replace(/[^\d]/g, ""));
    expect(cents(before) - cents(after)).toBe(10000);
    await poll(() => received.some((r) => JSON.parse(r.body).type === "payment.received"));
    const hit = received.find((r) => JSON.parse(r.body).type === "payment.received") as Received;
    const timestamp = String(hit.headers["x-service-timestamp"]);
    const expected = createHmac("sha256", secret).update(`${timestamp}.${hit.body}`).digest("hex");
    expect(String(hit.headers["x-service-signature"])).toContain(expected);
    expect(JSON.parse(hit.body).data).toMatchObject({ case_number: caseNumber });
    if (shots) {
      await page.screenshot({ path: `${shots}/console-case.png`, fullPage: true });
      await page.goto(`${origin}/console/zaken`);
      await page.screenshot({ path: `${shots}/console-cases.png` });
    }
  });

  it("makes the 14-day letter and downloads its PDF with the IBAN in its text", async () => {
    const caseNumber = await placeOrder("BRW-2", "Pietersen Bouw B.V.");
    const page = await loggedIn("handler");
    await page.goto(`${origin}/console/zaken/${caseNumber}`);
    await page.click("form[action$='/brief'] button");
    await page.waitForURL(/ok=brief/);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("a[download]")]);
    const path = await download.path();
    expect(readFileSync(path).subarray(0, 5).toString()).toBe("%PDF-");
    expect(download.suggestedFilename()).toMatch(/^aanmaning-.*\.pdf$/);
    // The letter names the account to pay to (decision case-system-letter-details).
    const { inspectPdf } = await import("@incasso/pdf-guard");
    const inspected = await inspectPdf(new Uint8Array(readFileSync(path)));
    const text = inspected.ok ? inspected.text.replace(/\s+/g, " ") : "";
    expect(text).toContain("over te maken op rekening NL91 ABNA 0417 1643 00 ten name van Browser BV,");
  });

  it("refuses a handler the key page, and a change whose CSRF token was removed", async () => {
    const page = await loggedIn("handler");
    const keys = await page.goto(`${origin}/console/sleutels`);
    expect(keys?.status()).toBe(403);
    expect(await page.textContent("h1")).toBe("Geen toegang");
    expect(await page.locator("nav a[href='/console/sleutels']").count()).toBe(0);
    const caseNumber = (await incasso.operations.listCases({})).data[0]?.case_number as string;
    await page.goto(`${origin}/console/zaken/${caseNumber}`);
    await page.evaluate(() => {
      for (const input of document.querySelectorAll("form[action$='/notitie'] input[name=csrf]"))
        input.remove();
    });
    await page.fill("#note", "zonder token");
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/notitie")),
      page.click("form[action$='/notitie'] button"),
    ]);
    expect(response.status()).toBe(403);
    const view = await incasso.operations.showCase({ case_number: caseNumber });
    expect(view.notes.filter((n) => n.text === "zonder token")).toEqual([]);
  });

  it("shows a delivery that failed against a receiver answering 500, and redelivers it from the console", async () => {
    const page = await loggedIn("admin");
    receiverStatus = 500;
    try {
      await page.goto(`${origin}/console/webhooks`);
      await page.click("form[action='/console/webhooks/ping'] button");
      // Refused: shown as failed, not as a green notice (issue 31, item 3).
      await page.waitForURL(/\/console\/webhooks\/evt_[^/?]+\?fout=ping/);
      const eventId = new URL(page.url()).pathname.split("/").pop() as string;
      expect(await page.textContent("[role=alert]")).toBe(
        "Ping niet afgeleverd: het eindpunt weigerde hem of was niet bereikbaar; zie de poging hieronder.",
      );
      expect(await page.locator(".notice.ok").count()).toBe(0);
      expect(await page.textContent("tbody tr td:nth-child(5)")).toBe("500");
      expect(await page.textContent("[data-field=last-answer]")).toBe(
        "HTTP 500: geweigerd door de ontvanger",
      );
      // The body sent is the one the receiver got.
      const sent = received.at(-1) as Received;
      expect(JSON.parse((await page.textContent("[data-field=payload]")) as string)).toEqual(
        JSON.parse(sent.body),
      );
      if (shots) await page.screenshot({ path: `${shots}/console-delivery-refused.png`, fullPage: true });
      receiverStatus = 204;
      await page.click("form[action$='/opnieuw'] button");
      await page.waitForURL(new RegExp(`/console/webhooks/${eventId}\\?ok=opnieuw`));
      expect(await page.textContent("[data-field=state]")).toBe("afgeleverd");
      const attempts = await page.locator("tbody tr").allTextContents();
      expect(attempts.length).toBe(2);
      if (shots) await page.screenshot({ path: `${shots}/console-delivery.png`, fullPage: true });
    } finally {
      receiverStatus = 204;
    }
  });

  it("lets an admin create a key shown once and revoke it, after which it answers 401", async () => {
    const page = await loggedIn("admin");
    await page.goto(`${origin}/console/sleutels`);
    // `browser bv` typed as a new organisation beside `Browser BV` is refused, the form as typed.
    await page.selectOption("#organisation", "");
    await page.fill("#new_organisation", "browser bv");
    await page.selectOption("#mode", "live");
    await page.click("form[action='/console/sleutels'] button");
    await page.waitForLoadState();
    expect(await page.textContent("[role=alert]")).toBe(
      "Er is al een organisatie Browser BV; kies haar in de lijst.",
    );
    expect(await page.inputValue("#new_organisation")).toBe("browser bv");
    expect(await page.inputValue("#mode")).toBe("live");
    expect((await incasso.operations.listKeys()).filter((k) => k.organisation !== "Browser BV")).toEqual([]);
    // Picked from the list instead.
    await page.selectOption("#organisation", "Browser BV");
    await page.selectOption("#mode", "test");
    await page.click("form[action='/console/sleutels'] button");
    const key = (await page.textContent("[data-field=new-key]")) as string;
    expect(key).toMatch(/^svc_test_/);
    // The copy button puts the key on the clipboard.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin });
    await page.click("button[data-copy=new-key]");
    // The copy is asynchronous: the page says so once it is done.
    await poll(() => page.textContent(".copied")).toBe("Gekopieerd.");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    const call = () => fetch(`${origin}/api/v1/orders`, { headers: { authorization: `Bearer ${key}` } });
    expect((await call()).status).toBe(200);
    if (shots) await page.screenshot({ path: `${shots}/console-keys.png`, fullPage: true });
    // The key just used shows when; the minute of its use, in Dutch notation.
    await poll(async () =>
      (await incasso.operations.listKeys()).some((k) => k.mode === "test" && k.last_used_at),
    );
    await page.goto(`${origin}/console/sleutels`);
    const testRow = page.locator("tbody tr", { hasText: key.slice(-4) });
    expect(await testRow.locator("[data-field=last-used]").textContent()).toMatch(
      /^\d{2}-\d{2}-\d{4} \d{2}:\d{2}$/,
    );
    const id = (await incasso.operations.listKeys()).find((k) => !k.revoked_at && k.mode === "test")
      ?.id as string;
    await page.goto(`${origin}/console/sleutels`);
    await page.click(`form[action='/console/sleutels/${id}/intrekken'] button`);
    await page.waitForURL(/ok=ingetrokken/);
    expect((await call()).status).toBe(401);
    if (shots) {
      for (const [path, name] of [
        ["/console/webhooks", "console-webhooks"],
        ["/console/organisaties", "console-organisations"],
        ["/console/udf", "console-udf"],
      ] as const) {
        await page.goto(`${origin}${path}`);
        await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
      }
    }
    expect(elsewhere).toEqual([]);
  });

  it("lets an admin create a handler whose credential, shown once, logs in but is refused the operators page", async () => {
    const page = await loggedIn("admin");
    await page.click("nav a[href='/console/operators']");
    await page.waitForURL(`${origin}/console/operators`);
    await page.fill("#name", "Bram Nieuw");
    await page.selectOption("#role", "handler");
    const [created] = await Promise.all([
      page.waitForResponse(
        (r) => r.url() === `${origin}/console/operators` && r.request().method() === "POST",
      ),
      page.click("form[action='/console/operators'] button"),
    ]);
    expect(created.status()).toBe(201);
    const credential = (await page.textContent("[data-field=new-credential]")) as string;
    const made = (await incasso.operations.listOperators()).find((o) => o.name === "Bram Nieuw");
    expect(made?.role).toBe("handler");
    const hex = (made?.id ?? "").slice(3);
    // iop_, the hex of the operator's id, _, 32 base62 characters (decision operators-credentials).
    expect(credential).toMatch(new RegExp(`^iop_${hex}_[0-9A-Za-z]{32}$`));
    await page.goto(`${origin}/console/operators`);
    expect(await page.locator("[data-field=new-credential]").count()).toBe(0);
    expect(await page.content()).not.toContain(credential);
    if (shots) await page.screenshot({ path: `${shots}/console-operators.png`, fullPage: true });
    await page.click("form.logout button");
    await page.waitForURL(`${origin}/console/inloggen`);
    await page.fill("#credential", credential);
    await page.click("button[type=submit]");
    await page.waitForURL(`${origin}/console/zaken`);
    expect(await page.textContent(".who")).toBe("Bram Nieuw (behandelaar)");
    expect(await page.locator("nav a[href='/console/operators']").count()).toBe(0);
    const refused = await page.goto(`${origin}/console/operators`);
    expect(refused?.status()).toBe(403);
    expect(await page.textContent("h1")).toBe("Geen toegang");
  });

  it("shows a handler the attachments with active content on the case page, without axe-core violations", async () => {
    const polyglot = Buffer.from(await makeActivePdf("html-prefix")).toString("base64");
    const caseNumber = await placeOrder("BRW-PDF", "Actief Papier B.V.", [
      { filename: "factuur.pdf", content_base64: polyglot },
    ]);
    const page = await loggedIn("handler");
    await page.goto(`${origin}/console/zaken/${caseNumber}`);
    const notice = page.getByRole("note");
    expect(await notice.locator("h2").textContent()).toBe("Let op: bijlagen met actieve inhoud");
    expect(await notice.locator("li").first().textContent()).toMatch(
      /^Bijlage factuur\.pdf \(attachments\[0\]\) bevat actieve inhoud: tekens vóór de %PDF-kop/,
    );
    expect(await page.locator('td [data-warning="pdf_active_content"]').count()).toBe(1);
    if (shots) await page.screenshot({ path: `${shots}/console-case-active-pdf.png`, fullPage: true });
    await page.addScriptTag({ url: `${origin}/__axe.js` });
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("shows a failed 14-day letter on its case and on the needs attention page, and retries it from there", async () => {
    const caseNumber = await placeOrder("BRW-ATT", "Aandacht Handel B.V.");
    const orderId = (await incasso.operations.showCase({ case_number: caseNumber })).orders[0]
      ?.order_id as string;
    // This service runs no letter runner: the job waits. Failed as the runner records a refusal.
    await incasso.store.database.query(
      `UPDATE case_letter_jobs SET state = 'failed', attempts = 1, due_at = NULL, updated_at = now(),
         last_error = 'letter_details_missing: Browser BV has no IBAN.' WHERE order_id = $1`,
      [orderId],
    );
    const hold = await fetch(`${origin}/api/v1/orders/${orderId}/hold`, {
      method: "POST",
      headers: { authorization: `Bearer ${liveKey}`, "content-type": "application/json" },
      body: JSON.stringify({ reason: "Debiteur belt terug" }),
    });
    expect(hold.status).toBe(202);
    const page = await loggedIn("handler");
    await page.goto(`${origin}/console/zaken/${caseNumber}`);
    const job = page.locator(`tr[data-letter-job="${orderId}"]`);
    expect(await job.getAttribute("data-state")).toBe("failed");
    expect(await job.locator("td").nth(1).textContent()).toBe("mislukt");
    expect(await job.locator("td").nth(4).textContent()).toBe(
      "De organisatie heeft geen IBAN in haar briefgegevens; de brief wordt gemaakt zodra het IBAN is ingesteld.",
    );
    expect(await page.locator("#taken ~ table [data-action=hold]").first().textContent()).toBe("Aanhouden");
    if (shots) await page.screenshot({ path: `${shots}/console-case-letter-failed.png`, fullPage: true });
    await page.click("nav a[href='/console/aandacht']");
    await page.waitForURL(`${origin}/console/aandacht`);
    const rows = page.locator("tbody tr");
    // The hold came last, so it is first; the failed letter is listed with its retry.
    expect(await rows.first().getAttribute("data-kind")).toBe("task");
    const letterRow = page.locator("tr[data-kind=letter]", { hasText: caseNumber });
    expect(await letterRow.count()).toBe(1);
    if (shots) await page.screenshot({ path: `${shots}/console-attention.png`, fullPage: true });
    await letterRow.locator("button").click();
    await page.waitForURL(`${origin}/console/aandacht?ok=brief-opnieuw`);
    expect(await page.textContent("[role=status]")).toBe(
      "De brief wordt opnieuw geprobeerd; de briefmaker neemt het zo over.",
    );
    expect(await page.locator("tr[data-kind=letter]", { hasText: caseNumber }).count()).toBe(0);
    expect((await incasso.operations.listLetterJobs({ case_number: caseNumber })).data).toMatchObject([
      {
        order_id: orderId,
        state: "pending",
        attempts: 0,
        last_error: "letter_details_missing: Browser BV has no IBAN.",
      },
    ]);
  });

  it("keeps every letter detail as typed when the IBAN is refused, with the reason in Dutch", async () => {
    const page = await loggedIn("admin");
    await page.goto(`${origin}/console/organisaties`);
    const form = page.locator("form", { hasText: "Briefgegevens Browser BV" });
    const typed: Record<string, string> = {
      sender_name: "Browser Incasso B.V.",
      street: "Nieuwstraat 9",
      postal_code: "5678 CD",
      city: "Zwolle",
      iban: "NL00 ABNA 0417 1643 00",
      bic: "ABNANL2A",
      kvk_number: "87654321",
      phone: "030 123 45 67",
      email: "post@browser.example",
    };
    for (const [name, value] of Object.entries(typed)) await form.locator(`[name=${name}]`).fill(value);
    await form.locator("button").click();
    await page.waitForLoadState();
    expect(await page.textContent("[role=alert]")).toBe(
      "Briefgegevens niet opgeslagen. Het IBAN klopt niet: controleer de landcode, de twee controlecijfers en het rekeningnummer.",
    );
    const again = page.locator("form", { hasText: "Briefgegevens Browser BV" });
    for (const [name, value] of Object.entries(typed))
      expect([name, await again.locator(`[name=${name}]`).inputValue()]).toEqual([name, value]);
    if (shots) await page.screenshot({ path: `${shots}/console-letter-details-refused.png`, fullPage: true });
    expect((await incasso.operations.showLetterDetails({ organisation: "Browser BV" })).iban).toBe(
      "NL91ABNA0417164300",
    );
  });

  it("has no serious or critical axe-core violations on its pages", async () => {
    const page = await loggedIn("admin");
    const caseNumber = (await incasso.operations.listCases({})).data[0]?.case_number as string;
    for (const path of [
      "/console/zaken",
      `/console/zaken/${caseNumber}`,
      "/console/aandacht",
      "/console/webhooks",
      "/console/sleutels",
      "/console/operators",
      "/console/organisaties",
      "/console/udf",
    ]) {
      await page.goto(`${origin}${path}`);
      await page.addScriptTag({ url: `${origin}/__axe.js` });
      expect({ path, violations: await seriousViolations(page) }).toEqual({ path, violations: [] });
    }
  });

  // Last: five failures lock the client address (127.0.0.1) too, so no login follows it.
  it("refuses a wrong credential, and after five failures shows until when logins are refused", async () => {
    const page = await loginPage();
    if (shots) await page.screenshot({ path: `${shots}/console-login.png` });
    // An operator's id with a wrong secret: counted per operator and per client address.
    const victim = await incasso.operations.createOperator({ name: "Vera Vergeten" });
    const wrong = `${victim.credential.slice(0, -4)}xxxx`;
    for (let i = 0; i < 5; i++) {
      await page.fill("#credential", wrong);
      await page.click("button[type=submit]");
      await page.waitForLoadState();
    }
    await page.fill("#credential", victim.credential);
    await page.click("button[type=submit]");
    await page.waitForLoadState();
    expect(await page.textContent("[role=alert]")).toMatch(
      /^Te veel mislukte pogingen; probeer het na \d{2}:\d{2} opnieuw\.$/,
    );
    expect(new URL(page.url()).pathname).toBe("/console/inloggen");
  });
});

if (process.env.INCASSO_SCREENSHOTS) mkdirSync(process.env.INCASSO_SCREENSHOTS, { recursive: true });
