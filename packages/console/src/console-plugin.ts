import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { StaticAsset } from "@incasso/pages";
import { type ApiPlugin, definePlugin, defineRoute, isApiError, type RouteContext } from "@incasso/server";
import { readBodyBytes } from "@incasso/server/internal";
import { consoleActions } from "./console-actions.js";
import type { ConsoleLayoutInput } from "./console-layout.js";
import type { ConsoleCaseExtras, ConsoleOperations } from "./console-operations.js";
import { type ConsoleDatabase, recordAudit } from "./console-queries.js";
import { htmlPage, seeOther } from "./console-responses.js";
import { type ConsoleSection, mayUse } from "./console-roles.js";
import { consoleViews } from "./console-views.js";
import { formatTime } from "./dutch-format.js";
import { loginMain } from "./login-page.js";
import { messageMain } from "./message-page.js";
import type { Operator, OperatorDirectory } from "./operator-directory.js";
import {
  type ConsoleSession,
  checkCsrfToken,
  csrfToken,
  DEFAULT_SESSION_LIMITS,
  newSession,
  openSession,
  readCookie,
  type SessionLimits,
  sealSession,
  setCookieHeader,
} from "./session-cookie.js";
import { type ConsoleSessionStore, sessionId, sqlSessionStore } from "./session-store.js";

/**
 * Options of {@link consolePlugin}.
 *
 * @example
 * const options: ConsoleOptions = { operators, operations: incasso.operations, cases: builtInCaseSystem, database: store.database };
 */
export interface ConsoleOptions {
  /** Checks credentials and looks operators up (`createOperatorDirectory(store)` of `@incasso/app`). */
  operators: OperatorDirectory;
  /** The CLI's operations (`incasso.operations`); a function when they are made after the API. */
  operations: ConsoleOperations | (() => ConsoleOperations);
  /** The built-in case system, for notes and letter downloads. */
  cases: ConsoleCaseExtras;
  /** The store's database, for the lists, the audit trail and the sessions (`store.database`). */
  database: ConsoleDatabase;
  /**
   * Where live sessions are kept; default the table `console_sessions` of `database` (migration
   * 51, decision console-session-state).
   */
  sessions?: ConsoleSessionStore;
  /** Where the console is, at the host's root. Default `/console`. */
  path?: string;
  /**
   * The key that signs session cookies, at least 32 bytes. Default: random per process, so a
   * restart logs everybody out, and several instances behind one address need the same key.
   */
  sessionSecret?: string | Uint8Array;
  /** Session limits; default 8 hours from the login and 30 minutes idle. */
  session?: Partial<SessionLimits>;
  /**
   * Whether the cookie is `Secure`. Default: when the request's URL is https (the node server takes
   * it from X-Forwarded-Proto only behind a trusted proxy).
   */
  secureCookie?: boolean;
  /** The clock; tests pass a fixed one. */
  now?: () => Date;
}

/**
 * What a console handler gets: the operator, the session, its CSRF token and, for a post, the form.
 *
 * @example
 * const run = (req: ConsoleRequest) => req.page(200, { title: "Zaken", main: "…" });
 */
export interface ConsoleRequest {
  ctx: RouteContext<unknown, Record<string, string>, Record<string, string>>;
  operator: Operator;
  session: ConsoleSession;
  csrf: string;
  form: URLSearchParams;
  /** A page in the console's frame, with the operator's navigation. */
  page(status: number, layout: Omit<ConsoleLayoutInput, "base" | "operator" | "csrf">): Response;
}

/**
 * The shared parts the views and actions use.
 *
 * @example
 * const env: ConsoleEnvironment = { base: "/console", ops: () => operations, cases, database,
 *   sessions: sqlSessionStore(database), now: () => new Date() };
 */
export interface ConsoleEnvironment {
  base: string;
  ops: () => ConsoleOperations;
  cases: ConsoleCaseExtras;
  database: ConsoleDatabase;
  sessions: ConsoleSessionStore;
  now: () => Date;
}

/**
 * One route of the console: method, path below the console's base, the section (for the role
 * check) and what it does.
 *
 * @example
 * const r: ConsoleRoute = { method: "GET", path: "/zaken", section: "cases", run: (req) => req.page(200, { title: "Zaken", main: "" }) };
 */
export interface ConsoleRoute {
  method: "GET" | "POST";
  path: string;
  section: ConsoleSection;
  run(req: ConsoleRequest): Promise<Response> | Response;
}

const COOKIE = "incasso_console";
/**
 * Largest form the console reads, in bytes as sent; its forms hold a note of 4,000 characters at
 * most (decision console-form-body-limit).
 */
const MAX_FORM_BYTES = 64 * 1024;
const assetsDir = new URL("../assets/", import.meta.url);

function secretBytes(secret: string | Uint8Array | undefined): Uint8Array {
  if (secret === undefined) return randomBytes(32);
  const bytes = typeof secret === "string" ? new TextEncoder().encode(secret) : secret;
  if (bytes.length < 32) throw new Error("The console's sessionSecret must be at least 32 bytes.");
  return bytes;
}

/**
 * The form of a post, read as a stream with its limit kept while reading (issue 28, item 2;
 * decision console-form-body-limit): a declared Content-Length over the limit is refused before a
 * byte is read, and a body without one (chunked) is cancelled as soon as it passes the limit, so
 * no request holds more than 64 KiB of the console's memory. "broken": the body ended early.
 */
async function readForm(request: Request): Promise<URLSearchParams | "too_large" | "unsupported" | "broken"> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return "unsupported";
  let bytes: Uint8Array;
  try {
    bytes = await readBodyBytes(request, MAX_FORM_BYTES);
  } catch (error) {
    // readBodyBytes refuses with 413 past the limit and 400 for a body that broke off.
    if (isApiError(error) && error.status === 413) return "too_large";
    if (isApiError(error) && error.status === 400) return "broken";
    throw error;
  }
  // A form is UTF-8 percent-encoded (WHATWG URL, application/x-www-form-urlencoded parser).
  return new URLSearchParams(new TextDecoder().decode(bytes));
}

/**
 * The operator console as a plugin of the API (issue 19): server-rendered Dutch pages at
 * `/console` (decision console-stack) for cases, payments, letters, tasks, webhooks, API keys, UDF
 * fields and organisations, behind a login with an HttpOnly, SameSite=Strict session cookie, a
 * CSRF token on every change and a role check. Every change goes through the CLI's operations and
 * is recorded with who made it. The pages are left out of the OpenAPI document; the kernel does
 * not depend on this package. Apply {@link CONSOLE_MIGRATIONS} to the store.
 *
 * @example
 * import { consolePlugin } from "@incasso/console";
 *
 * const api = createApi({ store, caseSystem, plugins: [consolePlugin({ operators, operations, cases, database: store.database })] });
 */
export function consolePlugin(options: ConsoleOptions): ApiPlugin {
  const base = (options.path ?? "/console").replace(/\/+$/, "");
  const secret = secretBytes(options.sessionSecret);
  const limits: SessionLimits = { ...DEFAULT_SESSION_LIMITS, ...options.session };
  const now = options.now ?? (() => new Date());
  const given = options.operations;
  const sessions = options.sessions ?? sqlSessionStore(options.database);
  const env: ConsoleEnvironment = {
    base,
    ops: typeof given === "function" ? given : () => given,
    cases: options.cases,
    database: options.database,
    sessions,
    now,
  };
  const secure = (url: URL) => options.secureCookie ?? url.protocol === "https:";
  const cookie = (url: URL, value: string | undefined) =>
    setCookieHeader(COOKIE, value, {
      path: base,
      secure: secure(url),
      maxAgeSeconds: Math.floor(limits.idleMs / 1000),
    });
  const bare = (status: number, title: string, main: string) => htmlPage(status, { base, title, main });
  // The refusals of a form that could not be read, as the console's own pages (413 Content Too
  // Large, RFC 9110 §15.5.14; 400 for a body that broke off).
  const tooLarge = (back: string) =>
    bare(413, "Te groot", messageMain("Te groot", "Het formulier is te groot.", back));
  const broken = (back: string) =>
    bare(
      400,
      "Ongeldig formulier",
      messageMain("Ongeldig formulier", "Het formulier kwam niet volledig aan; probeer het opnieuw.", back),
    );
  const loginRedirect = (url: URL, hadCookie: boolean) => {
    const res = seeOther(`${base}/inloggen`);
    if (hadCookie) res.headers.append("set-cookie", cookie(url, undefined));
    return res;
  };
  // A post from another origin is refused whatever it carries (Fetch standard `Origin`; OWASP CSRF
  // cheat sheet, verifying origin with standard headers), before its form is read.
  const foreign = (ctx: RouteContext) => {
    const origin = ctx.request.headers.get("origin");
    return origin !== null && origin !== ctx.url.origin;
  };
  const forbidden = (req: { operator?: Operator; csrf?: string }, text: string) =>
    htmlPage(403, {
      base,
      title: "Geen toegang",
      main: messageMain("Geen toegang", text, `${base}/zaken`),
      ...(req.operator ? { operator: req.operator } : {}),
      ...(req.csrf ? { csrf: req.csrf } : {}),
    });

  async function authenticated(route: ConsoleRoute, ctx: ConsoleRequest["ctx"]): Promise<Response> {
    const at = now();
    const value = readCookie(ctx.request.headers.get("cookie"), COOKIE);
    const session = value === undefined ? undefined : openSession(value, secret, at, limits);
    // The session must be live on the server (ended by no log-out, log-out everywhere or
    // revocation), and the operator is looked up on every request, so a revoked operator is out at
    // once (issue 28, item 3).
    const [live, operator] = session
      ? await Promise.all([
          sessions.isLive(sessionId(session), session.operatorId, at),
          options.operators.get(session.operatorId),
        ])
      : [false, null];
    if (!session || !live || !operator) {
      if (route.method === "POST") return forbidden({}, "Uw sessie is verlopen; log opnieuw in.");
      return loginRedirect(ctx.url, value !== undefined);
    }
    const csrf = csrfToken(session, secret);
    if (!mayUse(operator.role, route.section))
      return forbidden({ operator, csrf }, "Dit deel van de console is alleen voor beheerders.");
    let form = new URLSearchParams();
    if (route.method === "POST") {
      if (foreign(ctx)) return forbidden({ operator, csrf }, "Dit verzoek kwam niet van deze console.");
      const read = await readForm(ctx.request);
      if (read === "too_large") return tooLarge(`${base}/zaken`);
      if (read === "broken") return broken(`${base}/zaken`);
      if (read === "unsupported")
        return bare(
          415,
          "Ongeldig formulier",
          messageMain("Ongeldig formulier", "Verstuur het formulier vanuit de console.", `${base}/zaken`),
        );
      if (!checkCsrfToken(session, secret, read.get("csrf")))
        return forbidden(
          { operator, csrf },
          "Het formulier is verlopen of kwam niet van deze console. Laad de pagina opnieuw.",
        );
      form = read;
    }
    const response = await route.run({
      ctx,
      operator,
      session,
      csrf,
      form,
      page: (status, layout) => htmlPage(status, { ...layout, base, operator, csrf }),
    });
    // Sliding idle limit: each request renews lastSeen; the 8-hour limit stays fixed at the login.
    // A response that sets the cookie itself (the log-out clears it) keeps its own.
    if (!response.headers.has("set-cookie"))
      response.headers.append(
        "set-cookie",
        cookie(ctx.url, sealSession({ ...session, lastSeen: at.getTime() }, secret)),
      );
    return response;
  }

  async function login(ctx: ConsoleRequest["ctx"]): Promise<Response> {
    if (foreign(ctx)) return forbidden({}, "Dit verzoek kwam niet van deze console.");
    const form = await readForm(ctx.request);
    if (form === "too_large") return tooLarge(`${base}/inloggen`);
    if (form === "broken") return broken(`${base}/inloggen`);
    if (form === "unsupported")
      return bare(400, "Inloggen", loginMain(base, "Verstuur het formulier vanuit de console."));
    const credential = form.get("credential")?.trim() ?? "";
    if (credential === "" || credential.length > 512)
      return bare(400, "Inloggen", loginMain(base, "Vul uw inloggegevens in."));
    const at = now();
    const result = await options.operators.login(credential, ctx.clientIp ?? "unknown", at);
    if (result.ok) {
      const session = newSession(result.operator.id, at);
      // Ended sessions leave no row; those past their maximum age are swept here, at each log-in.
      await sessions.sweep(at);
      await sessions.begin({
        id: sessionId(session),
        operatorId: session.operatorId,
        createdAt: at,
        expiresAt: new Date(session.issuedAt + limits.maxAgeMs),
      });
      const res = seeOther(`${base}/zaken`);
      res.headers.append("set-cookie", cookie(ctx.url, sealSession(session, secret)));
      return res;
    }
    if (result.reason === "locked") {
      // 429 Too Many Requests with Retry-After (RFC 6585 §4, RFC 9110 §10.2.3).
      const res = bare(
        429,
        "Inloggen",
        loginMain(
          base,
          `Te veel mislukte pogingen; probeer het na ${formatTime(result.lockedUntil)} opnieuw.`,
        ),
      );
      res.headers.set(
        "retry-after",
        String(Math.max(1, Math.ceil((result.lockedUntil.getTime() - at.getTime()) / 1000))),
      );
      return res;
    }
    return bare(401, "Inloggen", loginMain(base, "Onbekende of ingetrokken inloggegevens."));
  }

  const consoleRoutes: ConsoleRoute[] = [
    ...consoleViews(env),
    ...consoleActions(env),
    {
      // The log-out ends this session on the server, so a copy of the cookie is refused from now
      // on; with `overal=1` it ends every session of the operator (log out everywhere), which is
      // recorded in the audit trail (issue 28, item 3).
      method: "POST",
      path: "/uitloggen",
      section: "cases",
      run: async (req) => {
        if (req.form.get("overal") === "1") {
          const ended = await sessions.endAll(req.operator.id);
          await recordAudit(options.database, now(), {
            operatorId: req.operator.id,
            operatorName: req.operator.name,
            action: "Overal uitgelogd",
            caseNumber: null,
            subject: req.operator.id,
            detail: `${ended} ${ended === 1 ? "sessie" : "sessies"} beëindigd`,
          });
        } else await sessions.end(sessionId(req.session));
        const res = seeOther(`${base}/inloggen`);
        res.headers.append("set-cookie", cookie(req.ctx.url, undefined));
        return res;
      },
    },
  ];

  const route = (
    method: "GET" | "POST",
    path: string,
    operationId: string,
    handle: (ctx: ConsoleRequest["ctx"]) => Promise<Response> | Response,
  ) =>
    defineRoute({
      method,
      path: `${base}${path}`,
      root: true,
      openapi: false,
      operationId,
      summary: operationId,
      auth: "none",
      responses: { 200: { description: "A console page." } },
      handle: (ctx) => handle(ctx as ConsoleRequest["ctx"]),
    });

  const css = fileAsset("console.css", "text/css; charset=utf-8");
  const js = fileAsset("console.js", "text/javascript; charset=utf-8");
  const routes = [
    route("GET", "", "consoleHome", () => seeOther(`${base}/zaken`)),
    route("GET", "/inloggen", "consoleLoginPage", () => bare(200, "Inloggen", loginMain(base))),
    route("POST", "/inloggen", "consoleLogin", login),
    route("GET", "/assets/console.css", "consoleStyle", (ctx) => css().respond(ctx.request)),
    route("GET", "/assets/console.js", "consoleScript", (ctx) => js().respond(ctx.request)),
    ...consoleRoutes.map((r, i) =>
      route(r.method, r.path, `console${r.method}${i}`, (ctx) => authenticated(r, ctx)),
    ),
  ];
  return definePlugin({ name: "console", routes });
}

function fileAsset(name: string, contentType: string): () => StaticAsset {
  let asset: StaticAsset | undefined;
  // Read on first use: a host that never serves the console never reads the files.
  return () => {
    asset ??= new StaticAsset(readFileSync(new URL(name, assetsDir)), contentType, "public, max-age=3600");
    return asset;
  };
}
