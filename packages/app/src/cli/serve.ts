import type { Server } from "node:http";
import { issueApiKey } from "@incasso/core";
import { createDocumentChecker, createTitleWriter } from "@incasso/pdf-guard";
import { type CorsOptions, parseCorsOrigins } from "@incasso/server";
import { listen } from "@incasso/server/node";
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from "@incasso/store-sql";
import { createIncasso, type Incasso } from "../create-incasso.js";
import { databaseTimeouts } from "../database-timeouts.js";
import { storageTarget } from "../internal/cli-store.js";
import { showFirstKey } from "../internal/first-key.js";
import { letterDetailsHint, organisationsWithoutLetterIban } from "../internal/letter-details-hint.js";
import { ocrStartLine } from "../internal/ocr-budget.js";
import { reportSecretsAtRest } from "../internal/secrets-at-rest.js";
import { type LogLevel, parseLogLevel } from "../logging/log-level.js";
import { createPinoLogger, type IncassoLogger } from "../logging/pino-logger.js";
import { createIncassoMetrics } from "../metrics/incasso-metrics.js";
import { type MetricsServer, startMetricsServer } from "../metrics/metrics-server.js";
import { documentAiSettings } from "./document-ai.js";
import type { FlagValues } from "./flag-spec.js";
import { serveIdempotencyLease } from "./idempotency-lease-flag.js";
import { serveBodyBudget, serveLimits } from "./serve-limits.js";
import { asUsage, UsageError } from "./usage-error.js";

/** A TCP port from 0 to 65535; undefined when absent. */
function portNumber(value: string | boolean | undefined, flag: string): number | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  const port = Number(value);
  if (!/^[0-9]{1,5}$/.test(value) || port > 65535) {
    throw new UsageError(`${flag} must be an integer from 0 to 65535, not ${value}`);
  }
  return port;
}

/** A whole number of seconds, 0 or more; 30 when absent. */
function nonNegativeSeconds(value: string | boolean | undefined, flag: string): number {
  if (typeof value !== "string" || value === "") return 30;
  if (!/^[0-9]{1,6}$/.test(value)) {
    throw new UsageError(`${flag} must be a whole number of seconds, not ${value}`);
  }
  return Number(value);
}

/** The OCR budget per attachment in ms, 0 or more (0 = no OCR); undefined when absent. */
function ocrBudgetFlag(value: string | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  if (!/^[0-9]{1,7}$/.test(value)) {
    throw new UsageError(`--ocr-budget must be a whole number of milliseconds (0 = no OCR), not ${value}`);
  }
  return Number(value);
}

/** CORS of `serve` from its flags or variables (decision server-cors). */
function corsOptions(origins: string | undefined, protectedOrigins: string | undefined): CorsOptions {
  const protectedList = protectedOrigins === undefined ? undefined : parseCorsOrigins(protectedOrigins);
  if (protectedList === "*") {
    // Any page could then send an API key it got hold of: each origin is named on purpose.
    throw new UsageError("--cors-protected-origins takes a list of origins, not *");
  }
  return {
    ...(origins !== undefined ? { origins: parseCorsOrigins(origins) } : {}),
    ...(protectedList !== undefined ? { protectedOrigins: protectedList } : {}),
  };
}

const text = (value: string | boolean | undefined) => (typeof value === "string" ? value : undefined);

/**
 * The settings of `serve` from its flag values (flag, else variable; see SERVE_FLAGS). Reads
 * nothing but its arguments; a value it refuses is a usage error.
 *
 * @example
 * serveSettings({ port: "8080" }, {}).port; // 8080
 */
export function serveSettings(values: FlagValues, env: Record<string, string | undefined> = process.env) {
  return asUsage(() => {
    const port = portNumber(values.port ?? "3000", "--port") as number;
    const metricsPort = portNumber(values["metrics-port"], "--metrics-port");
    if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === port) {
      // The metrics name every route and its traffic: never on the port that faces clients.
      throw new UsageError("--metrics-port must differ from --port");
    }
    return {
      port,
      host: text(values.host) ?? "127.0.0.1",
      trustProxy: values["trust-proxy"] === true,
      logLevel: parseLogLevel(text(values["log-level"])) as LogLevel,
      metricsPort,
      metricsHost: text(values["metrics-host"]) ?? "127.0.0.1",
      shutdownSeconds: nonNegativeSeconds(values["shutdown-timeout"], "--shutdown-timeout"),
      cors: corsOptions(text(values["cors-origins"]), text(values["cors-protected-origins"])),
      webhookDispatcher: values["no-webhook-dispatcher"] !== true,
      letterRunner: values["no-letter-runner"] !== true,
      pages: values["no-pages"] !== true,
      console: values["no-console"] !== true,
      refuseActivePdf: values["refuse-active-pdf"] === true,
      ocrBudgetMs: ocrBudgetFlag(text(values["ocr-budget"])),
      allowPrivateWebhookTargets: values["allow-private-webhook-targets"] === true,
      ai: documentAiSettings(values, env),
      // Read before anything starts, so a bad value stops serve with its message.
      limits: serveLimits(values, env),
      bodyBudgetBytes: serveBodyBudget(values, env),
      idempotencyLeaseSeconds: serveIdempotencyLease(values, env),
      target: storageTarget(values),
      database: databaseTimeouts(values, env),
    };
  });
}

/**
 * `incasso serve`: the API on node:http with the workers, until SIGTERM or SIGINT.
 *
 * @example
 * await runServe({ port: "0", "data-dir": ".data" });
 */
export async function runServe(values: FlagValues): Promise<void> {
  const settings = serveSettings(values);
  const logger = createPinoLogger({ level: settings.logLevel });
  // Off unless asked for (decision operations-metrics).
  const metrics = settings.metricsPort === undefined ? undefined : createIncassoMetrics();
  const documentChecker = createDocumentChecker(settings.ai.config);
  const titleWriter = createTitleWriter(settings.ai.config);
  const incasso = await createIncasso(settings.target, {
    lockName: "serve",
    // The PostgreSQL time-outs (decision store-timeouts-and-keepalive).
    database: settings.database,
    webhooks: !settings.webhookDispatcher
      ? false
      : settings.allowPrivateWebhookTargets
        ? { allowPrivateTargets: true }
        : {},
    // The 14-day letters of pre-incasso orders are made from their jobs, off the request
    // (decision case-system-wik-letter-jobs).
    letters: settings.letterRunner ? {} : false,
    api: {
      cors: settings.cors,
      ...(settings.bodyBudgetBytes !== undefined ? { bodyBudgetBytes: settings.bodyBudgetBytes } : {}),
      // After a crash, retries wait out this lease at most (decision idempotency-lease-setting).
      ...(settings.idempotencyLeaseSeconds !== undefined
        ? { idempotency: { leaseSeconds: settings.idempotencyLeaseSeconds } }
        : {}),
    },
    // The standalone server owns its root: / and /docs lead to the pages (decision pages-stack).
    pages: settings.pages ? { rootRedirects: true } : false,
    // Behind a trusted proxy the cookie is Secure when the proxy says https (decision console-stack).
    ...(settings.console ? {} : { console: false as const }),
    documentChecker,
    titleWriter,
    // Decision pdf-guard-active-content: off, such PDFs are accepted with a warning.
    refuseActivePdf: settings.refuseActivePdf,
    // Decision pdf-guard-ocr: scans read within this budget per attachment.
    ocrBudgetMs: settings.ocrBudgetMs,
    logger,
    logRequests: true,
    // Said below, among the start lines, after the one that names the URL.
    secretsReport: false,
    // serve says where it listens and shows the first key itself, once it listens.
    startLines: false,
    ...(metrics ? { metrics } : {}),
  });
  const { store, api } = incasso;
  const embedded = store.engine === "pglite";
  let server: Awaited<ReturnType<typeof listen>>["server"] | undefined;
  let url: string;
  let firstKey: Awaited<ReturnType<typeof issueApiKey>> | undefined;
  let metricsServer: MetricsServer | undefined;
  try {
    ({ server, url } = await listen(api, {
      port: settings.port,
      host: settings.host,
      trustProxy: settings.trustProxy,
      limits: settings.limits,
    }));
    // Made once the server listens, so a start that fails leaves no key nobody was shown.
    firstKey =
      embedded && (await store.apiKeys.count()) === 0
        ? await issueApiKey(store, { organisation: "Demo", mode: "test" })
        : undefined;
    metricsServer = metrics
      ? await startMetricsServer({
          metrics,
          port: settings.metricsPort as number,
          host: settings.metricsHost,
        })
      : undefined;
  } catch (error) {
    // The workers and the operator endpoint are running: without this the process would hold the
    // data directory's lock and never exit (a port in use, for one).
    server?.close();
    await incasso.stop();
    throw error;
  }
  logger.info(`incasso listening on ${url}`, { url });
  if (firstKey) showFirstKey(logger, firstKey.key, url);
  else logger.info(`try: curl ${url}/ping`);
  logger.info(
    incasso.dispatcher
      ? `webhooks: delivered by this server (${DEFAULT_RETRY_SCHEDULE_SECONDS.length + 1} attempts)${incasso.allowPrivateWebhookTargets ? "; private targets allowed" : ""}`
      : "webhooks: no dispatcher here (--no-webhook-dispatcher); run incasso worker",
  );
  logger.info(
    incasso.letters
      ? "letters: 14-day letters of pre-incasso orders made by this server"
      : "letters: no letter runner here (--no-letter-runner); run incasso worker",
  );
  // Made once the first key exists: a fresh data directory's Demo has no IBAN yet.
  const detailsHint = letterDetailsHint(await organisationsWithoutLetterIban(store));
  if (detailsHint) logger.warn(detailsHint);
  logDocumentAi(logger, settings.ai);
  logger.info(
    incasso.refuseActivePdf
      ? "pdfs: PDFs with active content are refused (--refuse-active-pdf)"
      : "pdfs: PDFs with active content are accepted with the warning pdf_active_content",
  );
  const ocr = ocrStartLine(incasso.ocrBudgetMs);
  logger[ocr.level](ocr.message);
  if (metricsServer) logger.info(`metrics: ${metricsServer.url}`, { metricsUrl: metricsServer.url });
  else logger.info("metrics: off (--metrics-port N turns them on)");
  // Where a person reads the API and uses the tools (decision pages-api-reference).
  if (settings.pages) {
    logger.info(`pages: API reference ${url}/docs; WIK and court pages ${new URL(url).origin}/tools`);
  } else logger.info("pages: off");
  logger.info(settings.console ? `console: ${new URL(url).origin}/console` : "console: off");
  await reportSecretsAtRest(store, logger);
  // The last line of the start: tests and scripts wait for it.
  logger.info(`data: ${store.dataDir ?? "PostgreSQL (DATABASE_URL)"}`, { dataDir: store.dataDir ?? null });
  const shutdown = gracefulShutdown(server, incasso, settings.shutdownSeconds, logger, metricsServer);
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

/**
 * The start line that says which document checker and title writer run (issue 17, item 5).
 *
 * @example
 * logDocumentAi(logger, documentAiSettings({}, {})); // "documents: rules checker and template title writer (…)"
 */
export function logDocumentAi(logger: IncassoLogger, ai: ReturnType<typeof documentAiSettings>): void {
  if (ai.openai) {
    logger.info(`documents: OpenAI checker and OpenAI title writer (model ${ai.model})`, {
      documentChecker: "openai",
      titleWriter: "openai",
      openaiModel: ai.model,
    });
    return;
  }
  logger.info("documents: rules checker and template title writer (OPENAI_API_KEY turns on OpenAI)", {
    documentChecker: "rules",
    titleWriter: "template",
  });
}

/**
 * What `serve` does on SIGTERM or SIGINT: stop accepting connections, close idle keep-alive
 * connections at once, let the requests in flight finish (an upload included) for up to
 * `seconds`, then cut what is left; then stop the workers (the webhook attempt and the letter in
 * the making finish and are recorded, so no lease is left to run out), close the store and exit 0.
 * A second signal cuts the remaining connections at once.
 */
function gracefulShutdown(
  server: Server,
  incasso: Incasso,
  seconds: number,
  logger: IncassoLogger,
  metricsServer: MetricsServer | undefined,
): (signal: NodeJS.Signals) => void {
  let draining = false;
  return (signal) => {
    if (draining) {
      logger.warn(`incasso: ${signal} again; closing the remaining connections now`, { signal });
      server.closeAllConnections();
      return;
    }
    draining = true;
    logger.info(`incasso: ${signal}; finishing the requests in flight (up to ${seconds} s), then stopping`, {
      signal,
    });
    // A response sent while draining tells the client not to reuse its connection.
    server.on("request", (_req, res) => {
      if (!res.headersSent) res.setHeader("connection", "close");
    });
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // A keep-alive connection becomes idle when its response is sent: close it then, too.
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const deadline = setTimeout(() => {
      logger.warn(`incasso: requests still running after ${seconds} s; closing their connections`);
      server.closeAllConnections();
    }, seconds * 1000);
    void closed
      .then(() => {
        clearInterval(idle);
        clearTimeout(deadline);
        return Promise.all([incasso.stop(), metricsServer?.close()]);
      })
      .then(
        () => {
          logger.info("incasso: stopped");
          process.exit(0);
        },
        (error: unknown) => {
          logger.error("incasso: stopping failed", {
            error: error instanceof Error ? error.message : String(error),
          });
          process.exit(1);
        },
      );
  };
}
