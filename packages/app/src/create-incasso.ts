import {
  type BuiltInCaseSystem,
  type BuiltInCaseSystemOptions,
  createBuiltInCaseSystem,
  createLetterRunner,
  type LetterRunner,
} from "@incasso/case-system";
import { type ConsoleOptions, consolePlugin, type OperatorDirectory } from "@incasso/console";
import {
  type CaseSystem,
  type HandlerSweeper,
  type OrderHooks,
  type PlacementReconciler,
  resolveOrderHooks,
  startHandlerSweeper,
  startPlacementReconciler,
} from "@incasso/core";
import { type PagesOptions, pagesPlugin } from "@incasso/pages";
import {
  createRulesDocumentChecker,
  type DocumentChecker,
  type PdfEngine,
  type TitleWriter,
} from "@incasso/pdf-guard";
import { getPdfEngine } from "@incasso/pdf-guard/node";
import {
  type CompletedRequest,
  type CreateApiOptions,
  consoleLogger,
  createApi,
  type IncassoApi,
  type Logger,
  MemoryRateLimiter,
  type ReadinessReport,
} from "@incasso/server";
import { mergeMigrations, openStore, type SqlStore } from "@incasso/store-sql";
import { type DatabaseTimeouts, databaseTimeouts } from "./database-timeouts.js";
import { closePlugins, type HostPlugin, pluginMigrations, startPlugins } from "./host-plugins.js";
import { type IncassoTarget, resolveTarget } from "./incasso-target.js";
import { INCASSO_MIGRATIONS } from "./internal/incasso-migrations.js";
import { ocrBudgetMs, ocrStartLine } from "./internal/ocr-budget.js";
import { reportOwnCaseSystem } from "./internal/own-case-system-notes.js";
import { pgliteOption } from "./internal/pglite-settings.js";
import { refuseActivePdf } from "./internal/refuse-active-pdf.js";
import { reportSecretsAtRest, secretKeyOption } from "./internal/secrets-at-rest.js";
import { announceStart } from "./internal/start-lines.js";
import { requestLog } from "./logging/request-log.js";
import { workerEventLogs } from "./logging/worker-event-logs.js";
import type { IncassoMetrics } from "./metrics/incasso-metrics.js";
import { directOperations, type OperatorOperations } from "./operations/operations.js";
import {
  type OperatorEndpoint,
  type OperatorEndpointLimits,
  startOperatorEndpoint,
} from "./operations/operator-endpoint.js";
import { createOperatorDirectory } from "./operator-accounts/operator-directory.js";
import { allowPrivateWebhookTargets } from "./webhooks/allow-private-targets.js";
import {
  createWebhookDispatcher,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
} from "./webhooks/webhook-dispatcher.js";

/**
 * The body budget (decision server-body-budget) of a service on embedded PGlite: 128 MiB, where
 * createApi's default is 160 MiB. PGlite runs in the server's own process, about 150 MiB of it
 * with its 16 MiB buffer cache (decision store-pglite-memory), so one order of the largest size
 * (39 MB of body, 25 MiB of files: a share of 68 MB) is read at a time rather than two, and the
 * peak with 24 concurrent such orders stays under 700 MB. Orders of a few MB still run many at
 * once.
 *
 * @example
 * EMBEDDED_BODY_BUDGET_BYTES / 1024 / 1024; // 128
 */
export const EMBEDDED_BODY_BUDGET_BYTES = 128 * 1024 * 1024;

/**
 * Options of {@link createIncasso}. All optional: without any, the service runs on the built-in
 * case system with the offline document checker and the template title writer, and delivers
 * webhooks and makes 14-day letters itself.
 *
 * @example
 * const options: CreateIncassoOptions = { caseSystem: myCaseSystem, letters: false, webhooks: { concurrency: 4 } };
 */
export interface CreateIncassoOptions {
  /**
   * The host's own case system. Default: the built-in one (`@incasso/case-system`) in the same
   * database. A function gets the opened store, for a case system that shares it.
   */
  caseSystem?: CaseSystem | ((store: SqlStore) => CaseSystem);
  /**
   * Options of the built-in case system (`onChange`, `webhookEvents`): the built-in one with the
   * host's listener, which keeps the operator console and the letter runner (a `caseSystem` of the
   * host's own turns both off, and the start's log says so). Not together with `caseSystem`.
   */
  builtInCaseSystem?: Omit<BuiltInCaseSystemOptions, "store" | "now">;
  /**
   * The host's plugins (docs/plugins.md; decision app-host-plugin-lifecycle): their tables
   * (migrations from version 1000, applied with the others), routes, order hooks, and `start` and
   * `close`, called in order after the service is composed and in reverse order by `stop()`.
   */
  plugins?: readonly HostPlugin[];
  /** Compares attached PDFs with the declared data; default the offline rules checker. */
  documentChecker?: DocumentChecker;
  /** Writes a claim title when an order has none; default the Dutch template. */
  titleWriter?: TitleWriter;
  /** Where attached PDFs are parsed; default the process-wide worker-thread engine of pdf-guard. */
  pdfEngine?: PdfEngine;
  /**
   * Refuse a PDF attachment that holds active content (JavaScript, a Launch action, an embedded
   * file, bytes before its `%PDF-` header) with 422 `invalid_attachment` instead of accepting it
   * unchanged with the order warning `pdf_active_content` (decision pdf-guard-active-content).
   * Default: the INCASSO_REFUSE_ACTIVE_PDF variable (`1`, `true`, `yes`, `on`), else off.
   */
  refuseActivePdf?: boolean;
  /**
   * Time in ms one PDF attachment's scanned pages (no text layer) may take to be read by OCR in
   * the PDF workers, so the document check can compare them too (decision pdf-guard-ocr); 0 reads
   * none. Default: the INCASSO_OCR_BUDGET_MS variable, else 8 000 (a three-page scan within 10 s
   * on two cores). OCR needs the optional packages of `@incasso/pdf-guard` (`tesseract.js`, its
   * English and Dutch data, `@napi-rs/canvas`); without them a start line says scans are not read.
   */
  ocrBudgetMs?: number;
  /**
   * The webhook dispatcher (transactional outbox, signed deliveries). On by default; `false` when
   * another process (`incasso worker`) delivers. `allowPrivateTargets` defaults to the
   * INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS variable.
   */
  webhooks?: false | Omit<Partial<WebhookDispatcherOptions>, "store">;
  /**
   * The letter runner that makes the 14-day letter of each pre-incasso order (decision
   * case-system-wik-letter-jobs). On by default with the built-in case system; `false` when
   * another process (`incasso worker`) makes them. A host's own case system sends its own letters,
   * so there it is off unless `letters` is an object.
   */
  letters?: false | { concurrency?: number };
  /**
   * The placement reconciler: at start and every `intervalMs` (default 60 s), undoes through the
   * case system's `withdrawPlacement` a placement whose order row was never stored, once it is older
   * than `graceMs` (default 5 minutes; decision orders-engine-placement-intents). On by default,
   * for the built-in case system and a host's own; any number of processes may run it at once.
   */
  placementReconciler?: false | { intervalMs?: number; graceMs?: number };
  /**
   * The handler sweeper: at start and every `intervalMs` (default 60 s), runs again, with
   * `replayed: true`, the host's `orderPlaced` and `actionRequested` handlers of an order or control
   * request whose handlers never settled (the process stopped first), once the run is older than
   * `graceMs` (default 5 minutes; decision orders-host-hooks). On when the host has handlers; any
   * number of processes may run it at once.
   */
  handlerSweeper?: false | { intervalMs?: number; graceMs?: number };
  /**
   * The operator endpoint on the loopback interface, through which `incasso keys|webhooks|cases …`
   * work on a data directory this process holds (decision operator-endpoint). On by default for a
   * data directory; PostgreSQL needs none (the CLI opens the database itself). An object sets its
   * caps and time-outs (`OperatorEndpointLimits`; each has a default).
   */
  operatorEndpoint?: false | OperatorEndpointLimits;
  /** More options of the API: base path, public URL, plugins, tools, limits. */
  api?: Omit<
    CreateApiOptions,
    "store" | "caseSystem" | "documentChecker" | "titleWriter" | "pdfEngine" | "publicOnly"
  >;
  /**
   * The web pages (`@incasso/pages`): the API reference at `{basePath}/docs` and the public WIK and
   * court pages at `/tools`. On by default; `false` serves none (decision pages-api-reference).
   */
  pages?: false | Omit<PagesOptions, "openapi">;
  /**
   * Who may log in to the operator console (`@incasso/console`, issue 19), served at `/console` on
   * the built-in case system. Default: the operators of `incasso operators create` in the same
   * database (`createOperatorDirectory`); a function gets the opened store.
   */
  operators?: OperatorDirectory | ((store: SqlStore) => OperatorDirectory);
  /**
   * The operator console's settings (path, session secret and limits, Secure cookie); `false`
   * serves no console. Without `sessionSecret` (or INCASSO_CONSOLE_SECRET) a key is made per
   * process: a restart logs everybody out.
   */
  console?: false | Pick<ConsoleOptions, "path" | "sessionSecret" | "session" | "secureCookie">;
  /** Where the service logs; default the console. `createPinoLogger()` gives structured JSON lines. */
  logger?: Logger;
  /**
   * One log line per request (decision operations-logs); default false, as a host usually logs
   * its own requests. `incasso serve` turns it on.
   */
  logRequests?: boolean;
  /**
   * Where the service counts requests, deliveries, letters and document checks, and reads the
   * outbox at each scrape (`createIncassoMetrics()`, decision operations-metrics); default none.
   */
  metrics?: IncassoMetrics;
  /** The clock; tests pass a fixed one. */
  now?: () => Date;
  /**
   * What the data-directory lock says holds it, in the message another process gets; default
   * `createIncasso` (`incasso serve` says `serve`).
   */
  lockName?: string;
  /** The environment read for defaults; default `process.env`. */
  env?: Record<string, string | undefined>;
  /**
   * How long the PostgreSQL store waits: for a connection, for a statement's answer (past it the
   * request gets 503 and the connection is closed), the server's statement_timeout, and the idle
   * time before TCP keep-alive probes (decision store-timeouts-and-keepalive). Default: the
   * INCASSO_DATABASE_* variables (each one given here wins), else the store's defaults (5 s, 10 s,
   * the server's, 30 s).
   * Ignored on the embedded database.
   */
  database?: DatabaseTimeouts;
  /**
   * The keys that encrypt webhook secrets at rest; default the INCASSO_SECRET_KEY variable (decision
   * store-secrets-at-rest). Without one the secrets are stored as given, and the start says so.
   */
  secretKey?: string;
  /**
   * The start's log line about how webhook secrets are kept (unencrypted without a key, rows left
   * to rotate, key ids the keyring lacks); on by default. `false` when the host says it itself
   * (`incasso serve` does, among its start lines).
   */
  secretsReport?: false;
  /**
   * The start's lines, as `incasso serve` prints them: where the API, the pages and the console
   * are, and on an empty embedded data directory a test key for organisation Demo, made and shown
   * once (issue 32, item 3). On by default; `false` for none (`incasso serve` prints its own once it
   * listens).
   */
  startLines?: false;
}

/**
 * A running incasso service: hand `api` to a host (`incassoExpress(incasso.api)`, …), and call
 * `stop()` after the host's server stopped accepting.
 *
 * @example
 * const incasso = await createIncasso({ dataDir: ".data" });
 * app.use("/api/v1", incassoExpress(incasso.api));
 * process.once("SIGTERM", () => server.close(() => void incasso.stop()));
 */
export interface Incasso {
  /** The API as one web-standard handler. */
  readonly api: IncassoApi;
  /** The opened store (PGlite or PostgreSQL), migrations applied. */
  readonly store: SqlStore;
  /** The case system orders are placed on. */
  readonly caseSystem: CaseSystem;
  /** The webhook dispatcher, unless switched off. */
  readonly dispatcher: WebhookDispatcher | undefined;
  /** The letter runner, unless switched off. */
  readonly letters: LetterRunner | undefined;
  /** The operator endpoint, when this process holds a data directory. */
  readonly operator: OperatorEndpoint | undefined;
  /** Whether webhooks may go to private addresses (local development only). */
  readonly allowPrivateWebhookTargets: boolean;
  /**
   * Whether a PDF with active content is refused (422 `invalid_attachment`) instead of accepted
   * with the warning `pdf_active_content`: the option, else INCASSO_REFUSE_ACTIVE_PDF.
   */
  readonly refuseActivePdf: boolean;
  /** The OCR time budget per PDF attachment in ms, 0 when scans are not read: the option, else INCASSO_OCR_BUDGET_MS. */
  readonly ocrBudgetMs: number;
  /** What the CLI does (keys, webhooks, cases, …), directly on this store. */
  readonly operations: OperatorOperations;
  /**
   * The readiness check GET /readyz runs: the database answers and is migrated, the dispatcher and
   * the letter runner run (or are switched off), and the age of the oldest due outbox event. For
   * a host that serves its own probe (decision server-health-endpoints).
   */
  readiness(): Promise<ReadinessReport>;
  /**
   * Stops the workers (the attempt and the letter in flight finish and are recorded, so no lease
   * is left to run out), closes the operator endpoint and the store. Call it after the host's
   * server has finished its requests. Safe to call twice.
   */
  stop(): Promise<void>;
}

/**
 * Composes a running service: opens the store (a PGlite data directory or a PostgreSQL URL) and
 * applies every package's migrations, uses the built-in case system unless one is given, creates
 * the API, starts the webhook dispatcher and the letter runner (each can be switched off), and the
 * operator endpoint so the CLI works while the host runs. `incasso serve` is this plus the node
 * server. Without a target it reads DATABASE_URL, then INCASSO_DATA_DIR, then uses `./.data`, as
 * the CLI does.
 *
 * @example
 * import express from "express";
 * import { createIncasso } from "@incasso/app";
 * import { incassoExpress } from "@incasso/express";
 *
 * const incasso = await createIncasso({ dataDir: ".data" });
 * const app = express();
 * app.use("/api/v1", incassoExpress(incasso.api));
 * const server = app.listen(3000);
 * process.once("SIGTERM", () => server.close(() => void incasso.stop()));
 */
export async function createIncasso(
  target: IncassoTarget | undefined = undefined,
  options: CreateIncassoOptions = {},
): Promise<Incasso> {
  const env = options.env ?? process.env;
  const logger = options.logger ?? consoleLogger;
  const now = options.now ?? (() => new Date());
  const resolved = resolveTarget(target, env);
  // Checked before the store opens: a plugin's bad version range is refused without touching it.
  const extra = pluginMigrations(options.plugins ?? []);
  // Every package's tables, in version order (decision case-system-owns-its-migrations).
  const store = await openStore({
    ...resolved,
    lockCommand: options.lockName ?? "createIncasso",
    migrations: extra.length === 0 ? INCASSO_MIGRATIONS : mergeMigrations(INCASSO_MIGRATIONS, extra),
    ...secretKeyOption(options.secretKey ?? env.INCASSO_SECRET_KEY),
    ...pgliteOption(env.INCASSO_PGLITE_SHARED_BUFFERS),
    ...databaseTimeouts({}, env),
    ...options.database,
  });
  try {
    if (options.secretsReport !== false) await reportSecretsAtRest(store, logger);
    return await compose(store, options, { env, logger, now });
  } catch (error) {
    await store.close();
    throw error;
  }
}

async function compose(
  store: SqlStore,
  options: CreateIncassoOptions,
  facts: { env: Record<string, string | undefined>; logger: Logger; now: () => Date },
): Promise<Incasso> {
  const { env, logger, now } = facts;
  const embedded = store.engine === "pglite";
  const apiOrders = options.api?.orders;
  const refuseActive = refuseActivePdf(
    options.refuseActivePdf ?? (apiOrders ? apiOrders.refuseActivePdf : undefined),
    env,
  );
  const ocrBudget = ocrBudgetMs(
    options.ocrBudgetMs ?? (apiOrders ? apiOrders.attachmentLimits?.ocrBudgetMs : undefined),
    env,
  );
  if (options.caseSystem !== undefined && options.builtInCaseSystem !== undefined) {
    throw new TypeError(
      "createIncasso: pass caseSystem (your own) or builtInCaseSystem (options of the built-in one), not both.",
    );
  }
  const given = typeof options.caseSystem === "function" ? options.caseSystem(store) : options.caseSystem;
  const builtIn: BuiltInCaseSystem | undefined = given
    ? undefined
    : createBuiltInCaseSystem({ ...options.builtInCaseSystem, store, now });
  if (given) reportOwnCaseSystem(logger, { console: options.console, letters: options.letters });
  const caseSystem: CaseSystem = given ?? (builtIn as BuiltInCaseSystem);
  // Filled in below, once the workers exist; the API only calls it when a probe arrives.
  let dispatcher: WebhookDispatcher | undefined;
  let letters: LetterRunner | undefined;
  const readiness = () =>
    checkReadiness({ store, logger, now, dispatcher: () => dispatcher, letters: () => letters });
  const metrics = options.metrics;
  metrics?.watchOutbox(store.outbox, now);
  const reporters = [
    ...(options.logRequests ? [requestLog(logger)] : []),
    ...(metrics ? [metrics.onResponse] : []),
    ...(options.api?.onResponse ? [options.api.onResponse] : []),
  ];
  const onResponse =
    reporters.length === 0
      ? undefined
      : (request: CompletedRequest) => {
          for (const report of reporters) report(request);
        };
  const documentChecker = metrics
    ? metrics.instrumentChecker(options.documentChecker ?? createRulesDocumentChecker())
    : options.documentChecker;
  const events = workerEventLogs(logger);
  // The host plugins' routes and order hooks, after those given under `api`.
  const hostPlugins = options.plugins ?? [];
  const hostRoutes = hostPlugins.flatMap((p) => (p.api ? [p.api] : []));
  const apiHooks = options.api?.orderHooks;
  const hostHooks = [
    ...hooksOf(apiHooks),
    ...hostPlugins.flatMap((p) => (p.orderHooks ? [p.orderHooks] : [])),
  ];
  // The web pages read the document lazily, so the plugin can be made before the API it documents.
  let api: IncassoApi | undefined;
  const pages =
    options.pages === false
      ? []
      : [
          pagesPlugin({
            openapi: () => api?.openapi(),
            ...(options.api?.basePath ? { apiBasePath: options.api.basePath } : {}),
            ...options.pages,
          }),
        ];
  // The console works the built-in case system through the same operations as the CLI, made
  // below once the dispatcher exists (so ping and redeliver send with it).
  const consoleSecret = env.INCASSO_CONSOLE_SECRET;
  const consoles =
    options.console === false || !builtIn
      ? []
      : [
          consolePlugin({
            operators:
              typeof options.operators === "function"
                ? options.operators(store)
                : (options.operators ?? createOperatorDirectory(store)),
            operations: () => operations,
            cases: builtIn,
            database: store.database,
            now,
            ...(consoleSecret ? { sessionSecret: consoleSecret } : {}),
            ...options.console,
          }),
        ];
  api = createApi({
    // The embedded store is one process by construction (the lock), so counters can stay in
    // memory; PostgreSQL may serve several instances, which must share them in the database.
    // Embedded PGlite also keeps the database's memory in this process, so fewer body bytes are
    // let in at once (decision server-body-budget). A host's own budget wins.
    ...(embedded
      ? { rateLimiter: new MemoryRateLimiter(), bodyBudgetBytes: EMBEDDED_BODY_BUDGET_BYTES }
      : {}),
    now,
    logger,
    ...options.api,
    // A PDF with active content: accepted with a warning, or refused when the operator says so
    // (decision pdf-guard-active-content).
    // Scans are read by OCR within the budget (decision pdf-guard-ocr).
    ...(apiOrders === false
      ? {}
      : {
          orders: {
            ...apiOrders,
            refuseActivePdf: refuseActive,
            attachmentLimits: { ...apiOrders?.attachmentLimits, ocrBudgetMs: ocrBudget },
          },
        }),
    plugins: [...pages, ...consoles, ...(options.api?.plugins ?? []), ...hostRoutes],
    ...(hostHooks.length > 0 ? { orderHooks: hostHooks } : {}),
    store,
    caseSystem,
    ...(documentChecker ? { documentChecker } : {}),
    ...(onResponse ? { onResponse } : {}),
    ...(options.titleWriter ? { titleWriter: options.titleWriter } : {}),
    // PDFs are parsed in worker threads, under the time and memory limits of pdf-guard.
    pdfEngine: options.pdfEngine ?? getPdfEngine(),
    // A host's own readiness check, if it gives one, replaces the composed one.
    health: options.api?.health === false ? false : { readiness, ...options.api?.health },
  });

  const webhookOptions = options.webhooks === false ? undefined : (options.webhooks ?? {});
  const allowPrivateTargets =
    webhookOptions?.allowPrivateTargets ?? allowPrivateWebhookTargets(undefined, env);
  dispatcher = webhookOptions
    ? createWebhookDispatcher({
        logger,
        now,
        ...webhookOptions,
        store,
        allowPrivateTargets,
        onAttempt: (attempt) => {
          events.onAttempt(attempt);
          metrics?.onAttempt(attempt);
          webhookOptions.onAttempt?.(attempt);
        },
      })
    : undefined;
  dispatcher?.start();

  const letterOptions =
    options.letters === false
      ? undefined
      : options.letters === undefined && given
        ? undefined
        : (options.letters ?? {});
  letters = letterOptions
    ? createLetterRunner({
        store,
        ...(builtIn ? { caseSystem: builtIn } : {}),
        now,
        logger,
        onJob: (result) => {
          events.onLetterJob(result);
          metrics?.onLetterJob(result);
        },
        ...(letterOptions.concurrency ? { concurrency: letterOptions.concurrency } : {}),
      })
    : undefined;
  letters?.start();
  // After a crash or an outage between a placement and its order row: undone from the start on.
  // On the system clock, as the intents are (a host's `now` is the orders' clock, not this one).
  const reconciler: PlacementReconciler | undefined =
    options.placementReconciler === false
      ? undefined
      : startPlacementReconciler({ store, caseSystem, logger, ...options.placementReconciler });

  const operations = directOperations(store, {
    webhooks: { allowPrivateTargets, ...(dispatcher ? { dispatcher } : {}) },
  });
  let operator: OperatorEndpoint | undefined;
  let started: HostPlugin[] | undefined;
  let sweeper: HandlerSweeper | undefined;
  try {
    operator =
      options.operatorEndpoint !== false && embedded && store.dataDir
        ? await startOperatorEndpoint({
            operations,
            dataDir: store.dataDir,
            logger,
            ...(options.operatorEndpoint ? { limits: options.operatorEndpoint } : {}),
          })
        : undefined;
    // The host's plugins start last, so they find everything else running; the start lines come
    // once they have, since they announce a host that is ready.
    started = await startPlugins(hostPlugins, { store, logger });
    sweeper = startSweeper(options.handlerSweeper, {
      store,
      logger,
      // The engine's hooks: those of `orders.hooks`, then the host's.
      hooks: [...hooksOf(apiOrders === false ? undefined : apiOrders?.hooks), ...hostHooks],
    });
    if (options.startLines !== false) {
      await announceStart({
        store,
        logger,
        basePath: api.basePath,
        publicUrl: options.api?.publicUrl,
        pages: pages.length > 0,
        console: consoles.length > 0,
        env,
      });
      if (apiOrders !== false) {
        const ocr = ocrStartLine(ocrBudget);
        logger[ocr.level](ocr.message);
      }
    }
  } catch (error) {
    if (started) await closePlugins(started, logger);
    await Promise.allSettled([
      operator?.close(),
      dispatcher?.stop(),
      letters?.stop(),
      reconciler?.stop(),
      sweeper?.stop(),
    ]);
    throw error;
  }
  const running = started;
  const runningSweeper = sweeper;

  let stopped: Promise<void> | undefined;
  return {
    api,
    store,
    caseSystem,
    dispatcher,
    letters,
    operator,
    allowPrivateWebhookTargets: allowPrivateTargets,
    refuseActivePdf: refuseActive,
    ocrBudgetMs: ocrBudget,
    operations,
    readiness,
    stop() {
      stopped ??= Promise.allSettled([
        operator?.close(),
        dispatcher?.stop(),
        letters?.stop(),
        reconciler?.stop(),
        runningSweeper?.stop(),
      ])
        .then(() => closePlugins(running, logger))
        .then(() => store.close());
      return stopped;
    },
  };
}

const hooksOf = (hooks: OrderHooks | readonly OrderHooks[] | undefined): OrderHooks[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? [...hooks] : [hooks as OrderHooks];

/**
 * The handler sweeper, after a crash between an order's row and the end of its host handlers
 * (decision orders-host-hooks): started after the plugins, whose handlers may need what their
 * `start` opened, and only when there are handlers to run again.
 */
function startSweeper(
  option: CreateIncassoOptions["handlerSweeper"],
  parts: { store: SqlStore; logger: Logger; hooks: OrderHooks[] },
): HandlerSweeper | undefined {
  if (option === false) return undefined;
  const hooks = resolveOrderHooks(parts.hooks);
  if (hooks.orderPlaced.length === 0 && hooks.actionRequested.length === 0) return undefined;
  return startHandlerSweeper({ ...parts, ...option });
}

/**
 * The readiness of a composed service (decision server-health-endpoints). Nothing of a failure's
 * cause is in the report (it is public): the cause goes to the log.
 */
async function checkReadiness(parts: {
  store: SqlStore;
  logger: Logger;
  now: () => Date;
  dispatcher: () => { running: boolean } | undefined;
  letters: () => { running: boolean } | undefined;
}): Promise<ReadinessReport> {
  const { store, logger } = parts;
  const checks: Record<string, string> = {};
  const details: Record<string, number | null> = { outbox_oldest_due_seconds: null };
  let ready = true;
  try {
    // A query on the database: it answers, and has every step of this release's schema.
    const pending = await store.pendingMigrations();
    checks.database = "ok";
    checks.migrations = pending.length === 0 ? "ok" : "pending";
    if (pending.length > 0) {
      ready = false;
      logger.warn("readiness: migrations pending; run incasso migrate", { pending });
    }
    const now = parts.now();
    const due = await store.outbox.oldestDueAt(now);
    // An outbox backlog is reported, never a reason to be unready: taking instances out of
    // rotation does not deliver a single event sooner.
    details.outbox_oldest_due_seconds = due
      ? Math.max(0, Math.floor((now.getTime() - due.getTime()) / 1000))
      : 0;
  } catch (error) {
    ready = false;
    checks.database = "failing";
    checks.migrations ??= "unknown";
    logger.error("readiness: the database did not answer", { error: String(error) });
  }
  for (const [name, worker] of [
    ["webhook_dispatcher", parts.dispatcher()],
    ["letter_runner", parts.letters()],
  ] as const) {
    checks[name] = worker === undefined ? "off" : worker.running ? "running" : "stopped";
    if (worker !== undefined && !worker.running) ready = false;
  }
  return { ready, checks, details };
}
