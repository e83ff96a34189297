import { deliveryMain, keysMain, organisationsMain, udfMain, webhooksMain } from "./admin-pages.js";
import { attentionMain } from "./attention-page.js";
import { CONSOLE_CASE_STATUSES, caseListMain } from "./case-list-page.js";
import { caseMain } from "./case-page.js";
import type { ConsoleEnvironment, ConsoleRequest, ConsoleRoute } from "./console-plugin.js";
import {
  caseAudit,
  caseEvents,
  findEvent,
  listCases,
  listOrganisations,
  openTasks,
  orderWarnings,
} from "./console-queries.js";
import { consoleHeaders } from "./console-responses.js";
import { mayUse } from "./console-roles.js";
import { domainErrorMessage } from "./domain-error.js";
import { messageMain } from "./message-page.js";
import { operatorsMain } from "./operators-page.js";

/** Cases per page of the list. */
const PAGE_SIZE = 25;
const CASE_NUMBER = /^[A-Za-z0-9-]{1,50}$/;

/**
 * What a `?ok=` after a change says: fixed texts, so no text of the URL is echoed on the page.
 *
 * @example
 * OK_MESSAGES.betaling; // "Betaling geboekt."
 */
export const OK_MESSAGES: Record<string, string> = {
  betaling: "Betaling geboekt.",
  status: "Status gewijzigd.",
  gesloten: "Zaak gesloten.",
  brief: "14-dagenbrief gemaakt en vastgelegd als verzonden.",
  notitie: "Notitie toegevoegd.",
  taak: "Taak afgehandeld.",
  opnieuw: "Opnieuw afgeleverd.",
  "opnieuw-gestart": "Opnieuw afleveren gestart; de webhookverzender neemt het over.",
  eindpunt: "Eindpunt opgeslagen.",
  ping: "Ping afgeleverd.",
  "ping-gestart": "Ping in de wachtrij gezet; de webhookverzender levert hem af.",
  "brief-opnieuw": "De brief wordt opnieuw geprobeerd; de briefmaker neemt het zo over.",
  ingetrokken: "Sleutel ingetrokken.",
  "operator-ingetrokken": "Medewerker ingetrokken.",
  "sessies-beeindigd": "Alle sessies van de medewerker zijn beëindigd.",
  briefgegevens: "Briefgegevens opgeslagen.",
};

/**
 * What a `?fout=` after a change says: a change that was carried out but did not succeed, such as a
 * ping the endpoint refused (issue 31, item 3). Fixed texts, as for `?ok=`.
 *
 * @example
 * FAILED_MESSAGES.ping; // "Ping niet afgeleverd: …"
 */
export const FAILED_MESSAGES: Record<string, string> = {
  ping: "Ping niet afgeleverd: het eindpunt weigerde hem of was niet bereikbaar; zie de poging hieronder.",
  opnieuw:
    "Opnieuw afleveren mislukt: het eindpunt weigerde de gebeurtenis of was niet bereikbaar; zie de poging hieronder.",
};

const okOf = (req: ConsoleRequest) => OK_MESSAGES[req.ctx.url.searchParams.get("ok") ?? ""];
const notesOf = (req: ConsoleRequest): { ok?: string; error?: string } => {
  const ok = okOf(req);
  const error = FAILED_MESSAGES[req.ctx.url.searchParams.get("fout") ?? ""];
  return { ...(ok ? { ok } : {}), ...(error ? { error } : {}) };
};

/**
 * The case page of a request, or a 404 page for a case that does not exist.
 *
 * @example
 * return renderCase(env, req, "2026-000001", 200, { ok: "Betaling geboekt." });
 */
export async function renderCase(
  env: ConsoleEnvironment,
  req: ConsoleRequest,
  caseNumber: string,
  status: number,
  notes: { ok?: string; error?: string; values?: Record<string, string> },
): Promise<Response> {
  const notFound = () =>
    req.page(404, {
      title: "Niet gevonden",
      main: messageMain("Niet gevonden", `Er is geen zaak ${caseNumber}.`, `${env.base}/zaken`),
      current: "cases",
    });
  if (!CASE_NUMBER.test(caseNumber)) return notFound();
  let view: Awaited<ReturnType<ReturnType<ConsoleEnvironment["ops"]>["showCase"]>>;
  try {
    view = await env.ops().showCase({ case_number: caseNumber });
  } catch (error) {
    if ((error as { code?: unknown }).code === "case_not_found") return notFound();
    throw error;
  }
  const orderIds = view.orders.map((o) => o.order_id);
  const [events, audit, warnings, letterJobs] = await Promise.all([
    caseEvents(env.database, orderIds),
    caseAudit(env.database, caseNumber),
    orderWarnings(env.database, orderIds),
    env.ops().listLetterJobs({ case_number: caseNumber, limit: 100 }),
  ]);
  return req.page(status, {
    title: `Zaak ${caseNumber}`,
    current: "cases",
    main: caseMain({
      base: env.base,
      view,
      events,
      audit,
      warnings,
      letterJobs: letterJobs.data,
      csrf: req.csrf,
      ...notes,
    }),
  });
}

/** At most this many of each kind on the "needs attention" page. */
const ATTENTION_LIMIT = 100;

/**
 * The "needs attention" page: open tasks, letter jobs that failed or wait after a failed
 * attempt, and failed webhook deliveries, newest first (decision console-needs-attention).
 *
 * @example
 * return renderAttention(env, req, 200, {});
 */
export async function renderAttention(
  env: ConsoleEnvironment,
  req: ConsoleRequest,
  status: number,
  notes: { ok?: string; error?: string },
): Promise<Response> {
  const ops = env.ops();
  const [tasks, failed, pending, deliveries] = await Promise.all([
    openTasks(env.database, ATTENTION_LIMIT),
    ops.listLetterJobs({ state: "failed", limit: ATTENTION_LIMIT }),
    ops.listLetterJobs({ state: "pending", limit: ATTENTION_LIMIT }),
    ops.listDeliveries({ failed: true, limit: ATTENTION_LIMIT }),
  ]);
  // A pending job is due for its first attempt, or again after a retry (nothing to see yet), or
  // waits after a failed attempt: only the last is listed.
  const letterJobs = [...failed.data, ...pending.data.filter((j) => j.last_error !== null && j.attempts > 0)];
  return req.page(status, {
    title: "Aandacht nodig",
    current: "attention",
    main: attentionMain({ base: env.base, tasks, letterJobs, deliveries, csrf: req.csrf, ...notes }),
  });
}

/**
 * The webhooks page: deliveries with the failed ones first; endpoints for an admin.
 *
 * @example
 * return renderWebhooks(env, req, 200, {});
 */
export async function renderWebhooks(
  env: ConsoleEnvironment,
  req: ConsoleRequest,
  status: number,
  notes: { ok?: string; error?: string; secret?: string; values?: Record<string, string> },
): Promise<Response> {
  const ops = env.ops();
  const admin = mayUse(req.operator.role, "endpoints");
  const [failed, recent, endpoints, organisations] = await Promise.all([
    ops.listDeliveries({ failed: true, limit: 100 }),
    ops.listDeliveries({ limit: 100 }),
    admin ? ops.listWebhooks() : Promise.resolve(undefined),
    admin ? listOrganisations(env.database) : Promise.resolve([]),
  ]);
  const seen = new Set(failed.map((d) => d.event_id));
  return req.page(status, {
    title: "Webhooks",
    current: "webhooks",
    main: webhooksMain({
      base: env.base,
      deliveries: [...failed, ...recent.filter((d) => !seen.has(d.event_id))],
      endpoints,
      organisations: organisations.map((o) => o.name),
      csrf: req.csrf,
      ...notes,
    }),
  });
}

/**
 * The keys page, optionally with a key just created.
 *
 * @example
 * return renderKeys(env, req, 201, { created: "svc_test_…" });
 */
export async function renderKeys(
  env: ConsoleEnvironment,
  req: ConsoleRequest,
  status: number,
  notes: { ok?: string; error?: string; created?: string; values?: Record<string, string> },
): Promise<Response> {
  const [keys, organisations] = await Promise.all([env.ops().listKeys(), listOrganisations(env.database)]);
  return req.page(status, {
    title: "API-sleutels",
    current: "keys",
    main: keysMain({
      base: env.base,
      keys,
      organisations: organisations.map((o) => o.name),
      csrf: req.csrf,
      ...notes,
    }),
  });
}

/**
 * The operators page, optionally with an operator just created and its credential.
 *
 * @example
 * return renderOperators(env, req, 201, { created: { name: "Jan", credential: "opr_…" } });
 */
export async function renderOperators(
  env: ConsoleEnvironment,
  req: ConsoleRequest,
  status: number,
  notes: {
    ok?: string;
    error?: string;
    created?: { name: string; credential: string };
    values?: Record<string, string>;
  },
): Promise<Response> {
  const operators = await env.ops().listOperators();
  return req.page(status, {
    title: "Medewerkers",
    current: "operators",
    main: operatorsMain({ base: env.base, operators, self: req.operator.id, csrf: req.csrf, ...notes }),
  });
}

/**
 * The organisations page with each organisation's letter details.
 *
 * @example
 * return renderOrganisations(env, req, 200, {});
 */
export async function renderOrganisations(
  env: ConsoleEnvironment,
  req: ConsoleRequest,
  status: number,
  notes: { ok?: string; error?: string; typed?: { organisation: string; values: Record<string, string> } },
): Promise<Response> {
  const rows = await listOrganisations(env.database);
  const details = Object.fromEntries(
    await Promise.all(
      rows.map(async (o) => [o.name, await env.ops().showLetterDetails({ organisation: o.name })] as const),
    ),
  );
  return req.page(status, {
    title: "Organisaties",
    current: "organisations",
    main: organisationsMain({ rows, details, csrf: req.csrf, base: env.base, ...notes }),
  });
}

/**
 * The delivery page of one event.
 *
 * @example
 * return renderDelivery(env, req, "evt_0123456789abcdef", 200, {});
 */
export async function renderDelivery(
  env: ConsoleEnvironment,
  req: ConsoleRequest,
  eventId: string,
  status: number,
  notes: { ok?: string; error?: string },
): Promise<Response> {
  let attempts: Awaited<ReturnType<ReturnType<ConsoleEnvironment["ops"]>["listAttempts"]>>;
  try {
    attempts = await env.ops().listAttempts({ event_id: eventId });
  } catch (error) {
    const message = domainErrorMessage(error);
    if (message === undefined) throw error;
    return req.page(404, {
      title: "Niet gevonden",
      current: "webhooks",
      main: messageMain("Niet gevonden", message, `${env.base}/webhooks`),
    });
  }
  const event = await findEvent(env.database, eventId);
  return req.page(status, {
    title: `Gebeurtenis ${eventId}`,
    current: "webhooks",
    main: deliveryMain({ base: env.base, event, eventId, attempts, csrf: req.csrf, ...notes }),
  });
}

/**
 * The console's pages (GET): the case list and a case with its letter downloads, the webhooks
 * and one delivery, the keys, the operators, the UDF fields and the organisations.
 *
 * @example
 * const routes = consoleViews(env);
 */
export function consoleViews(env: ConsoleEnvironment): ConsoleRoute[] {
  return [
    {
      method: "GET",
      path: "/zaken",
      section: "cases",
      run: async (req) => {
        const url = req.ctx.url;
        const q = (url.searchParams.get("q") ?? "").trim().slice(0, 200);
        const statusParam = url.searchParams.get("status") ?? "";
        const status = (CONSOLE_CASE_STATUSES as readonly string[]).includes(statusParam) ? statusParam : "";
        const afterParam = url.searchParams.get("na");
        let after: { createdAt: string; caseNumber: string } | undefined;
        if (afterParam) {
          const sep = afterParam.indexOf("_");
          const createdAt = afterParam.slice(0, sep);
          const caseNumber = afterParam.slice(sep + 1);
          if (sep < 0 || Number.isNaN(Date.parse(createdAt)) || !CASE_NUMBER.test(caseNumber))
            return req.page(400, {
              title: "Ongeldige pagina",
              current: "cases",
              main: messageMain("Ongeldige pagina", "Deze paginalink is ongeldig.", `${env.base}/zaken`),
            });
          after = { createdAt, caseNumber };
        }
        const rows = await listCases(env.database, {
          ...(q ? { q } : {}),
          ...(status ? { status } : {}),
          ...(after ? { after } : {}),
          limit: PAGE_SIZE,
        });
        let next: string | undefined;
        if (rows.length > PAGE_SIZE) {
          rows.length = PAGE_SIZE;
          const last = rows[PAGE_SIZE - 1] as (typeof rows)[number];
          const params = new URLSearchParams();
          if (q) params.set("q", q);
          if (status) params.set("status", status);
          params.set("na", `${last.created_at.toISOString()}_${last.case_number}`);
          next = `${env.base}/zaken?${params}`;
        }
        return req.page(200, {
          title: "Zaken",
          current: "cases",
          main: caseListMain({ base: env.base, q, status, rows, next }),
        });
      },
    },
    {
      method: "GET",
      path: "/zaken/:caseNumber",
      section: "cases",
      run: (req) => renderCase(env, req, String(req.ctx.params.caseNumber ?? ""), 200, notesOf(req)),
    },
    {
      method: "GET",
      path: "/zaken/:caseNumber/brieven/:letterId",
      section: "cases",
      run: async (req) => {
        const params = req.ctx.params as Record<string, string>;
        const letter = await env.cases.readLetter({
          caseNumber: params.caseNumber ?? "",
          letterId: params.letterId ?? "",
        });
        if (!letter)
          return req.page(404, {
            title: "Niet gevonden",
            current: "cases",
            main: messageMain("Niet gevonden", "Deze brief bestaat niet.", `${env.base}/zaken`),
          });
        const headers = consoleHeaders("application/pdf");
        headers.set(
          "content-disposition",
          `attachment; filename="${letter.filename.replace(/[^\w.-]/g, "_")}"`,
        );
        headers.set("content-length", String(letter.bytes.byteLength));
        return new Response(letter.bytes as BodyInit, { status: 200, headers });
      },
    },
    {
      method: "GET",
      path: "/aandacht",
      section: "cases",
      run: (req) => renderAttention(env, req, 200, notesOf(req)),
    },
    {
      method: "GET",
      path: "/webhooks",
      section: "deliveries",
      run: (req) => {
        const ok = okOf(req);
        return renderWebhooks(env, req, 200, ok ? { ok } : {});
      },
    },
    {
      method: "GET",
      path: "/webhooks/:eventId",
      section: "deliveries",
      run: (req) => renderDelivery(env, req, String(req.ctx.params.eventId ?? ""), 200, notesOf(req)),
    },
    {
      method: "GET",
      path: "/sleutels",
      section: "keys",
      run: (req) => {
        const ok = okOf(req);
        return renderKeys(env, req, 200, ok ? { ok } : {});
      },
    },
    {
      method: "GET",
      path: "/operators",
      section: "operators",
      run: (req) => {
        const ok = okOf(req);
        return renderOperators(env, req, 200, ok ? { ok } : {});
      },
    },
    {
      method: "GET",
      path: "/udf",
      section: "udf",
      run: async (req) => {
        const organisations = await listOrganisations(env.database);
        const groups = await Promise.all(
          organisations.map(async (o) => ({ organisation: o.name, fields: await env.ops().listUdf(o.name) })),
        );
        return req.page(200, { title: "UDF-velden", current: "udf", main: udfMain(groups) });
      },
    },
    {
      method: "GET",
      path: "/organisaties",
      section: "organisations",
      run: (req) => {
        const ok = okOf(req);
        return renderOrganisations(env, req, 200, ok ? { ok } : {});
      },
    },
  ];
}
