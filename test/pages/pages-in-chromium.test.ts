import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, runBrowserTests, seriousViolations } from "./chromium.js";
import { type PagesServer, startPagesServer } from "./pages-server.js";

// The API reference and the public tool pages as a person meets them: in Debian's Chromium, at a
// phone's width, with the keyboard alone, checked with axe-core, and with nothing fetched from
// anywhere but the service itself (architecture: web pages fetch nothing at run time).

const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 900 };
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
// Waits for the page: generous, since the whole suite may run beside these tests on two cores.
const poll = <T>(fn: () => T | Promise<T>, options: { timeout: number } = { timeout: 10_000 }) =>
  expect.poll(fn, options);
const euros = (cents: number, locale = "nl-NL") =>
  new Intl.NumberFormat(locale, { style: "currency", currency: "EUR" }).format(cents / 100);

describe.skipIf(!runBrowserTests)("the pages in Chromium", { timeout: 90_000 }, () => {
  let server: PagesServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const elsewhere: string[] = [];
  const problems: string[] = [];

  // The order in which a date field takes day, month and year follows the browser's own locale,
  // not the page's; it is found once, on a scratch field.
  let dateOrder: "dmy" | "mdy" = "dmy";

  beforeAll(async () => {
    server = await startPagesServer();
    browser = await launchChromium();
    const scratch = await browser.newPage();
    await scratch.setContent('<input type="date" id="d">');
    await scratch.focus("#d");
    await scratch.keyboard.type("02012024");
    dateOrder = (await scratch.inputValue("#d")) === "2024-02-01" ? "mdy" : "dmy";
    await scratch.close();
  }, 120_000);
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.close();
  }, 120_000);

  // The path each page shows now, for the problems it reports (a page may be sent to another path).
  const shows = new WeakMap<Page, string>();

  async function open(path: string, viewport = PHONE): Promise<Page> {
    const context = await browser.newContext({ viewport, locale: "nl-NL" });
    contexts.push(context);
    // Anything not from the service is refused and remembered; axe-core is served from the
    // page's own origin, so the pages' Content-Security-Policy stays in force.
    await context.route("**/*", (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === "/__axe.js") {
        return route.fulfill({ body: axeSource, contentType: "text/javascript" });
      }
      if (url.origin !== server.origin) {
        elsewhere.push(url.href);
        return route.abort();
      }
      return route.continue();
    });
    const page = await context.newPage();
    page.on("pageerror", (error) => problems.push(`${shows.get(page)}: ${error.message}`));
    page.on("console", (message) => {
      // The browser logs every 4xx answer of fetch; a refused input is such an answer by design.
      const refused = /^Failed to load resource: the server responded with a status of 4\d\d/;
      if (message.type() === "error" && !refused.test(message.text()))
        problems.push(`${shows.get(page)}: ${message.text()}`);
    });
    return visit(page, path);
  }

  // Another page in the same tab: a new tab costs a new renderer process, about twice the CPU of
  // a navigation, and the pages keep no state in the browser (no cookie, no storage).
  async function visit(page: Page, path: string): Promise<Page> {
    shows.set(page, path);
    await page.goto(`${server.origin}${path}`);
    return page;
  }

  async function api(path: string, body: unknown): Promise<Record<string, unknown>> {
    const res = await fetch(`${server.origin}/api/v1${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  }

  async function expectAccessible(page: Page) {
    await page.addScriptTag({ url: `${server.origin}/__axe.js` });
    expect(await seriousViolations(page)).toEqual([]);
  }

  // Tabs until the element has focus: proof that the keyboard alone reaches it.
  async function tabTo(page: Page, selector: string, limit = 40) {
    for (let i = 0; i < limit; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    }
    throw new Error(`${selector} was not reached with Tab`);
  }

  async function fitsThePhone(page: Page) {
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1] as number);
  }

  it("shows the API reference with POST /orders and its example", async () => {
    const page = await open("/api/v1/docs#post-/orders", DESKTOP);
    const reference = page.locator("rapi-doc");
    await expect
      .poll(() => reference.getByText("Submit a collection order").first().isVisible(), { timeout: 30_000 })
      .toBe(true);
    // The request example is the document's own: the fixture order R-2026-17.
    const example = reference.locator("textarea.request-body-param-user-input").first();
    await poll(() => example.inputValue(), { timeout: 10_000 }).toContain('"reference": "R-2026-17"');
    expect(JSON.parse(await example.inputValue())).toMatchObject({
      type: "pre-incasso",
      reference: "R-2026-17",
    });
    await expectAccessible(page);
  });

  it("computes WIK with the keyboard alone and shows every figure the API answers", async () => {
    const page = await open("/tools/wik");
    await poll(() => page.locator("html").getAttribute("lang")).toBe("nl");
    await tabTo(page, "#wik-principal");
    await page.keyboard.type("1.250,00");
    await tabTo(page, "input[name=debtor_type][value=consumer]");
    await tabTo(page, "#wik-due-date", 3);
    await page.keyboard.type(dateOrder === "mdy" ? "01152024" : "15012024");
    expect(await page.inputValue("#wik-due-date")).toBe("2024-01-15");
    await tabTo(page, "#wik-vat", 5);
    await page.keyboard.press("Space");
    await page.keyboard.press("Enter");
    await page.locator("#wik-result h2").waitFor();
    const answer = (await api("/tools/wik", {
      amount_cents: 125000,
      debtor_type: "consumer",
      due_date: "2024-01-15",
      include_vat: true,
    })) as {
      principal_amount_cents: number;
      collection_costs_cents: number;
      collection_costs_vat_cents: number;
      total_amount_cents: number;
      basis: string;
      interest: {
        amount_cents: number;
        periods: { rate_percent: number; rate_confidence: string; amount_cents: number; days: number }[];
      };
    };
    const figure = (name: string) => page.locator(`[data-figure="${name}"]`);
    for (const [name, cents] of [
      ["principal", answer.principal_amount_cents],
      ["collection_costs", answer.collection_costs_cents],
      ["collection_costs_vat", answer.collection_costs_vat_cents],
      ["interest", answer.interest.amount_cents],
      ["total", answer.total_amount_cents],
    ] as const) {
      expect.soft(await figure(name).getAttribute("data-cents")).toBe(String(cents));
      expect
        .soft((await figure(name).textContent())?.replace(/\s/g, " "))
        .toBe(euros(cents).replace(/\s/g, " "));
    }
    const rows = page.locator("#wik-periods tbody tr");
    expect(await rows.count()).toBe(answer.interest.periods.length);
    for (const [i, period] of answer.interest.periods.entries()) {
      const row = rows.nth(i);
      await poll(() => row.locator("td").nth(2).textContent()).toBe(String(period.days));
      await expect
        .poll(() => row.locator("[data-rate]").getAttribute("data-rate"))
        .toBe(String(period.rate_percent));
      await expect
        .poll(() => row.locator("[data-confidence]").getAttribute("data-confidence"))
        .toBe(period.rate_confidence);
      await expect
        .poll(() => row.locator("[data-cents]").getAttribute("data-cents"))
        .toBe(String(period.amount_cents));
      expect((await row.locator("[data-cents]").textContent())?.replace(/\s/g, " ")).toBe(
        euros(period.amount_cents).replace(/\s/g, " "),
      );
    }
    // The explanation is in the page's language, from the answer's figures (not the API's English).
    const basis = (await page.locator("#wik-basis").textContent()) ?? "";
    expect(
      basis.startsWith("Indicatieve berekening, geen juridisch advies. Incassokosten volgens de staffel"),
    ).toBe(true);
    expect(basis).toContain(
      "met 21% btw over de kosten. Rente: wettelijke rente (art. 6:119 BW) vanaf de dag na 15 januari 2024 tot en met ",
    );
    expect(basis).not.toBe(answer.basis);
    await fitsThePhone(page);
    await expectAccessible(page);
  });

  it("shows the API's error beside the field it names", async () => {
    const page = await open("/tools/wik?lang=en");
    await poll(() => page.locator("html").getAttribute("lang")).toBe("en");
    await page.fill("#wik-principal", "0");
    await page.fill("#wik-due-date", "1999-01-01");
    await page.click("button[type=submit]");
    // amount_cents 0 is refused by the API with 422; its message stands beside the principal.
    await poll(() => page.locator("#wik-principal-error").textContent()).toBe("must be at least 1");
    await poll(() => page.locator("#wik-principal").getAttribute("aria-invalid")).toBe("true");
    await expect
      .poll(() => page.locator("#wik-principal").evaluate((el) => el === document.activeElement))
      .toBe(true);
    await poll(() => page.locator("#wik-result").isHidden()).toBe(true);
    await expectAccessible(page);
  });

  it("looks up an ambiguous place, offers the choices, and shows the court of the one picked", async () => {
    const page = await open("/tools/rol-router");
    await page.fill("#court-woonplaats", "Bergen");
    await page.fill("#court-naam", "Jansen");
    await page.keyboard.press("Enter");
    const answer = (await api("/tools/rol-router", { woonplaats: "Bergen", naam: "Jansen" })) as {
      status: string;
      opties: { woonplaats: string; gemeente: string; provincie: string }[];
    };
    expect(answer.status).toBe("ambiguous");
    const choices = page.locator("#court-result button.choice");
    await poll(() => choices.count()).toBe(answer.opties.length);
    const limburg = answer.opties.findIndex((o) => o.provincie === "Limburg");
    await poll(() => choices.nth(limburg).textContent()).toContain("Bergen L");
    // Picked with the keyboard: Tab to the choice, Enter.
    await tabTo(page, `#court-result li:nth-child(${limburg + 1}) button.choice`);
    await page.keyboard.press("Enter");
    const picked = answer.opties[limburg] as { woonplaats: string; gemeente: string; provincie: string };
    const court = (await api("/tools/rol-router", {
      woonplaats: picked.woonplaats,
      naam: "Jansen",
      gemeente: picked.gemeente,
      provincie: picked.provincie,
    })) as {
      status: string;
      rechtbank: string;
      kantonlocatie: string;
      maatgevende_letter: string;
      ontbrekend: string[];
      roldagen?: { komende_roldata: { datum: string; haalbaarheid: string }[] }[];
    };
    await poll(() => page.locator('[data-fact="rechtbank"]').textContent()).toBe(court.rechtbank);
    await expect
      .poll(() => page.locator('[data-fact="kantonlocatie"]').textContent())
      .toBe(court.kantonlocatie);
    await expect
      .poll(() => page.locator('[data-fact="maatgevende_letter"]').textContent())
      .toBe(court.maatgevende_letter);
    const dates = (court.roldagen ?? []).flatMap((d) => d.komende_roldata);
    await poll(() => page.locator("[data-haalbaarheid]").count()).toBe(dates.length);
    for (const date of dates) {
      await expect
        .poll(() =>
          page
            .locator(`tr[data-date="${date.datum}"] [data-haalbaarheid]`)
            .first()
            .getAttribute("data-haalbaarheid"),
        )
        .toBe(date.haalbaarheid);
    }
    if (court.status === "incomplete")
      await poll(() => page.locator("#court-incomplete").isVisible()).toBe(true);
    await fitsThePhone(page);
    await expectAccessible(page);
  });

  it("suggests places for one not found, and says plainly what is unknown", async () => {
    const page = await open("/tools/rol-router?lang=en");
    await page.fill("#court-woonplaats", "Amsterdm");
    await page.fill("#court-naam", "de Vries");
    await page.click("button[type=submit]");
    await expect
      .poll(() => page.locator("#court-result").textContent())
      .toContain("The place Amsterdm was not found.");
    await page.locator("#court-result button.choice", { hasText: "Amsterdam" }).click();
    await expect
      .poll(() => page.locator('[data-fact="rechtbank"]').textContent())
      .toBe("Rechtbank Amsterdam");
    // Bergen in Noord-Holland: the court is known, its hearing days are not.
    await page.fill("#court-woonplaats", "Bergen");
    await page.fill("#court-naam", "Jansen");
    await page.evaluate(() => {
      (document.querySelector("input[name=provincie]") as HTMLInputElement).value = "Noord-Holland";
    });
    await page.click("button[type=submit]");
    await expect
      .poll(() => page.locator("#court-incomplete").textContent())
      .toBe(
        "Not everything is known. Unknown: the hearing days. Check this with the court before serving a summons.",
      );
    await expectAccessible(page);
  });

  // Words of English sentences that no Dutch sentence has; a Dutch result must show none of them.
  const ENGLISH_MARKERS =
    /\b(the|and|with|without|from|not|interest|principal|computed|advice|rate|days|hearing|court|notes|unknown|total|amount)\b/i;

  /** The WIK page in `page`'s tab, with a result. */
  async function wikWithResult(page: Page, lang = "") {
    await visit(page, `/tools/wik${lang}`);
    await page.fill("#wik-principal", "1250,00");
    await page.fill("#wik-due-date", "2019-01-15");
    await page.check("input[name=debtor_type][value=business]");
    await page.check("#wik-vat");
    await page.click("button[type=submit]");
    await page.locator("#wik-periods").waitFor();
    return page;
  }

  /** The court page in `page`'s tab, with a result. */
  async function courtWithResult(page: Page, lang = "") {
    await visit(page, `/tools/rol-router${lang}`);
    await page.fill("#court-woonplaats", "Amsterdam");
    await page.fill("#court-naam", "de Vries");
    await page.click("button[type=submit]");
    await page.locator('[data-fact="rechtbank"]').waitFor();
    return page;
  }

  // Nothing scrolls sideways: not the page, and not a table inside its own scrolling box.
  async function scrollsSideways(page: Page): Promise<string[]> {
    return page.evaluate(() => {
      const wide: string[] = [];
      if (document.documentElement.scrollWidth > window.innerWidth) wide.push("page");
      for (const box of document.querySelectorAll<HTMLElement>(".table-wrap")) {
        if (box.scrollWidth > box.clientWidth) wide.push(box.getAttribute("aria-label") ?? "table");
      }
      return wide;
    });
  }

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 900 },
  ]) {
    it(`scrolls no page sideways at ${viewport.width} px, and shows every column of the interest periods`, async () => {
      const [first, ...others] = ["/tools", "/tools?lang=en", "/tools/wik", "/tools/rol-router"] as const;
      const page = await open(first, viewport);
      for (const path of [first, ...others]) {
        if (path !== first) await visit(page, path);
        expect.soft(await scrollsSideways(page), path).toEqual([]);
      }
      for (const lang of ["", "?lang=en"]) {
        const wik = await wikWithResult(page, lang);
        expect.soft(await scrollsSideways(wik), `wik${lang}`).toEqual([]);
        // Each of the six cells of a period is on screen, inside the viewport's width.
        const cells = await wik
          .locator("#wik-periods tbody tr")
          .first()
          .locator("td")
          .evaluateAll((tds) =>
            tds.map((td) => {
              const r = td.getBoundingClientRect();
              return r.width > 0 && r.left >= 0 && r.right <= window.innerWidth + 0.5;
            }),
          );
        expect(cells).toEqual([true, true, true, true, true, true]);
        const court = await courtWithResult(page, lang);
        expect.soft(await scrollsSideways(court), `court${lang}`).toEqual([]);
      }
      await page.context().close();
    });
  }

  it("shows a Dutch page's results without an English sentence, and an English one without Dutch day names or data notes", async () => {
    const page = await open("/tools/wik");
    const wik = await wikWithResult(page);
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a reader sees it, is what is checked
    const wikText = (await wik.locator("#wik-result").innerText()).replace(/\s+/g, " ");
    expect(wikText.match(ENGLISH_MARKERS)).toBeNull();
    expect(wikText).toContain("wettelijke handelsrente (art. 6:119a BW)");
    const court = await courtWithResult(page);
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a reader sees it, is what is checked
    const courtText = (await court.locator("#court-result").innerText()).replace(/\s+/g, " ");
    expect(courtText.match(ENGLISH_MARKERS)).toBeNull();
    expect(courtText).toMatch(/Rolzitting op (maandag|dinsdag|woensdag|donderdag|vrijdag) om /);

    const en = await courtWithResult(page, "?lang=en");
    const captions = await en.locator("#court-result caption").allTextContents();
    expect(captions.length).toBeGreaterThan(0);
    for (const caption of captions)
      expect(caption).toMatch(/^Hearing on (Monday|Tuesday|Wednesday|Thursday|Friday) at /);
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a reader sees it, is what is checked
    const enText = await en.locator("#court-result").innerText();
    expect(enText).not.toMatch(/maandag|dinsdag|woensdag|donderdag|vrijdag|Opmerkingen|Notes/);
    const answer = (await api("/tools/rol-router", { woonplaats: "Amsterdam", naam: "de Vries" })) as {
      opmerkingen: string[];
    };
    for (const note of answer.opmerkingen) expect(enText).not.toContain(note);
  });

  it("serves an overview of the tools that passes axe-core at phone width", async () => {
    const page = await open("/tools");
    await poll(() => page.locator("h1").textContent()).toBe("Openbare hulpmiddelen");
    // The intro counts what the cards offer: two tools and the reference.
    expect(await page.locator(".cards > li").count()).toBe(3);
    await poll(() => page.locator("main > p").first().textContent()).toBe(
      "Twee rekenhulpen voor schuldeisers, schuldenaren en hun adviseurs, zonder API-sleutel, en de referentie van de API voor wie hem zelf aanroept.",
    );
    await page.locator("a.lang").click();
    await poll(() => page.locator("h1").textContent()).toBe("Public tools");
    await fitsThePhone(page);
    await expectAccessible(page);
  });

  it("transfers at most 250 KB compressed on each page's first load", async () => {
    // What the browser received, headers and bodies as sent (compressed), from the first request
    // until the network is idle, in a fresh context with an empty cache (docs/benchmarks.md).
    const figures: Record<string, number> = {};
    for (const [path, viewport] of [
      ["/api/v1/docs", DESKTOP],
      ["/tools", PHONE],
      ["/tools/wik", PHONE],
      ["/tools/rol-router", PHONE],
    ] as const) {
      const context = await browser.newContext({ viewport });
      contexts.push(context);
      const page = await context.newPage();
      const responses: import("playwright-core").Response[] = [];
      page.on("response", (response) => responses.push(response));
      await page.goto(`${server.origin}${path}`, { waitUntil: "networkidle" });
      let bytes = 0;
      for (const response of responses) {
        const sizes = await response.request().sizes();
        bytes += sizes.responseHeadersSize + sizes.responseBodySize;
      }
      figures[path] = bytes;
    }
    console.info(`first-load bytes: ${JSON.stringify(figures)}`);
    for (const [path, bytes] of Object.entries(figures)) expect(bytes, path).toBeLessThanOrEqual(250_000);
    // The reference is by far the largest: the renderer's bundle.
    expect(figures["/api/v1/docs"]).toBeGreaterThan(100_000);
  });

  // INCASSO_SCREENSHOTS=docs/screenshots makes the README's pictures of the pages.
  it.runIf(process.env.INCASSO_SCREENSHOTS)("takes a screenshot of each page", async () => {
    const dir = process.env.INCASSO_SCREENSHOTS as string;
    const reference = await open("/api/v1/docs#post-/orders", DESKTOP);
    await poll(() => reference.getByText("Submit a collection order").first().isVisible()).toBe(true);
    await reference.waitForTimeout(500);
    await reference.screenshot({ path: `${dir}/api-reference.png` });
    const wik = await open("/tools/wik");
    await wik.fill("#wik-principal", "1250,00");
    await wik.fill("#wik-due-date", "2024-01-15");
    await wik.check("#wik-vat");
    await wik.click("button[type=submit]");
    await wik.locator("#wik-result h2").waitFor();
    await wik.screenshot({ path: `${dir}/wik-calculator.png`, fullPage: true });
    const court = await open("/tools/rol-router");
    await court.fill("#court-woonplaats", "Bergen");
    await court.fill("#court-naam", "Jansen");
    await court.click("button[type=submit]");
    await court.locator("#court-result button.choice").first().waitFor();
    await court.screenshot({ path: `${dir}/court-finder-choices.png`, fullPage: true });
    await court.fill("#court-woonplaats", "Amsterdam");
    await court.fill("#court-naam", "de Vries");
    await court.click("button[type=submit]");
    await court.locator('[data-fact="rechtbank"]').waitFor();
    await court.screenshot({ path: `${dir}/court-finder.png`, fullPage: true });
  });

  it("fetched nothing from elsewhere and met no script error", () => {
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
  });
});
