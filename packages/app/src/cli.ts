import type { Server } from "node:http";
import { parseArgs } from "node:util";
import { issueApiKey } from "@incasso/core";
import { type CorsOptions, parseCorsOrigins } from "@incasso/server";
import { listen } from "@incasso/server/node";
import pkg from "../package.json" with { type: "json" };
import { CASES_HELP, casesCommand, tasksCommand } from "./cli/cases.js";
import { SERVE_LIMIT_OPTIONS, SERVE_LIMITS_HELP, serveBodyBudget, serveLimits } from "./cli/serve-limits.js";
import { WEBHOOKS_HELP, webhooksCommand, workerCommand } from "./cli/webhooks.js";
import { createIncasso, type Incasso } from "./create-incasso.js";
import { type StorageFlags, storageTarget, withOperations } from "./internal/cli-store.js";
import { parseLogLevel } from "./logging/log-level.js";
import { createPinoLogger, type IncassoLogger } from "./logging/pino-logger.js";
import { createIncassoMetrics } from "./metrics/incasso-metrics.js";
import { type MetricsServer, startMetricsServer } from "./metrics/metrics-server.js";
import type { KeySummary } from "./operator/operations.js";
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from "./webhooks/retry-schedule.js";

const HELP = `incasso ${pkg.version}: the debt-collection order API

Usage:
  incasso serve [--port N] [--host H]   start the API server (default http://127.0.0.1:3000/api/v1)
                [--cors-origins LIST] [--cors-protected-origins LIST]
                [--shutdown-timeout SECONDS] [--log-level LEVEL]
                [--metrics-port N] [--metrics-host H]
                                        probes at /healthz and /readyz; CORS: public endpoints
                                        from LIST (* = any, the default), protected ones from
                                        none unless listed; on SIGTERM/SIGINT requests in flight
                                        get up to SECONDS (default 30) to finish; logs are JSON
                                        lines (pretty on a terminal), LEVEL trace|debug|info|
                                        warn|error|fatal|silent (default info); GET /metrics
                                        (Prometheus) on port N of 127.0.0.1 when N is given
${SERVE_LIMITS_HELP}  incasso migrate                       apply pending database migrations
  incasso keys create --organisation NAME --mode live|test [--creditor-name NAME]
                      [--visibility own|organisation] [--creditor-management]
                      [--per-minute N] [--per-day N] [--json]
                                        issue an API key; it is shown once
  incasso keys list [--json]            list keys (never the keys themselves)
  incasso keys revoke ID [--json]       revoke a key
  incasso udf set --organisation NAME --name FIELD --type text|number|boolean|date
  incasso udf list --organisation NAME [--json]
  incasso udf remove --organisation NAME --name FIELD
${WEBHOOKS_HELP}${CASES_HELP}  incasso --version                     print the version
  incasso --help                        show this help

Storage (every command): --data-dir DIR (embedded PostgreSQL, default ./.data) or
--database-url URL (PostgreSQL; DATABASE_URL when the flag is absent). Commands work while a
server runs on the same data directory: they reach it through its operator endpoint.

Environment: PORT, HOST, DATABASE_URL, INCASSO_CORS_ORIGINS, INCASSO_CORS_PROTECTED_ORIGINS,
INCASSO_SHUTDOWN_TIMEOUT, INCASSO_LOG_LEVEL, INCASSO_METRICS_PORT, INCASSO_METRICS_HOST,
INCASSO_HEADERS_TIMEOUT, INCASSO_REQUEST_TIMEOUT, INCASSO_MIN_BODY_RATE, INCASSO_BODY_GRACE,
INCASSO_MAX_CONNECTIONS and INCASSO_BODY_BUDGET are used when the flags are absent.
`;

const STORAGE_OPTIONS = {
  "data-dir": { type: "string" },
  "database-url": { type: "string" },
} as const;

function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]{0,8}$/.test(value)) throw new Error(`${flag} must be a positive integer, not ${value}`);
  return Number(value);
}

function oneOf<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  flag: string,
): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new Error(`${flag} must be ${allowed.join(" or ")}, not ${value}`);
  }
  return value as T;
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === "") throw new Error(`${flag} is required`);
  return value;
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function keyLine(k: KeySummary): string {
  const flags = [
    k.mode,
    k.visibility,
    k.creditor_management ? "creditor-management" : "",
    `${k.per_minute}/min`,
    `${k.per_day}/day`,
  ]
    .filter(Boolean)
    .join(" ");
  return `${k.id}  ${k.hint}  ${k.organisation} (${k.creditor_name})  ${flags}${k.revoked_at ? `  revoked ${k.revoked_at}` : ""}`;
}

/** CORS of `serve` from its flags or variables (decision server-cors). */
function corsOptions(origins: string | undefined, protectedOrigins: string | undefined): CorsOptions {
  const protectedList = protectedOrigins === undefined ? undefined : parseCorsOrigins(protectedOrigins);
  if (protectedList === "*") {
    // Any page could then send an API key it got hold of: each origin is named on purpose.
    throw new Error("--cors-protected-origins takes a list of origins, not *");
  }
  return {
    ...(origins !== undefined ? { origins: parseCorsOrigins(origins) } : {}),
    ...(protectedList !== undefined ? { protectedOrigins: protectedList } : {}),
  };
}

async function serve(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string", short: "p" },
      host: { type: "string" },
      "trust-proxy": { type: "boolean", default: false },
      "allow-private-webhook-targets": { type: "boolean", default: false },
      "no-webhook-dispatcher": { type: "boolean", default: false },
      "no-letter-runner": { type: "boolean", default: false },
      "cors-origins": { type: "string" },
      "cors-protected-origins": { type: "string" },
      "shutdown-timeout": { type: "string" },
      "log-level": { type: "string" },
      "metrics-port": { type: "string" },
      "metrics-host": { type: "string" },
      ...SERVE_LIMIT_OPTIONS,
      ...STORAGE_OPTIONS,
    },
    strict: true,
  });
  // Read before anything starts, so a bad value stops serve with its message.
  const limits = serveLimits(values);
  const bodyBudgetBytes = serveBodyBudget(values);
  const logger = createPinoLogger({
    level: parseLogLevel(values["log-level"] ?? process.env.INCASSO_LOG_LEVEL),
  });
  const metricsPort = portNumber(
    values["metrics-port"] ?? process.env.INCASSO_METRICS_PORT,
    "--metrics-port",
  );
  const metricsHost = values["metrics-host"] ?? process.env.INCASSO_METRICS_HOST ?? "127.0.0.1";
  // Off unless asked for (decision operations-metrics).
  const metrics = metricsPort === undefined ? undefined : createIncassoMetrics();
  const shutdownSeconds = nonNegativeSeconds(
    values["shutdown-timeout"] ?? process.env.INCASSO_SHUTDOWN_TIMEOUT,
    "--shutdown-timeout",
  );
  const cors = corsOptions(
    values["cors-origins"] ?? process.env.INCASSO_CORS_ORIGINS,
    values["cors-protected-origins"] ?? process.env.INCASSO_CORS_PROTECTED_ORIGINS,
  );
  const port = portNumber(values.port ?? process.env.PORT ?? "3000", "--port") as number;
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === port) {
    // The metrics name every route and its traffic: never on the port that faces clients.
    throw new Error("--metrics-port must differ from --port");
  }
  const host = values.host ?? process.env.HOST ?? "127.0.0.1";
  const incasso = await createIncasso(storageTarget(values), {
    lockName: "serve",
    webhooks: values["no-webhook-dispatcher"]
      ? false
      : values["allow-private-webhook-targets"]
        ? { allowPrivateTargets: true }
        : {},
    // The 14-day letters of pre-incasso orders are made from their jobs, off the request
    // (decision case-system-wik-letter-jobs).
    letters: values["no-letter-runner"] ? false : {},
    api: { cors, ...(bodyBudgetBytes !== undefined ? { bodyBudgetBytes } : {}) },
    logger,
    logRequests: true,
    ...(metrics ? { metrics } : {}),
  });
  const { store, api } = incasso;
  const embedded = store.engine === "pglite";
  let server: Awaited<ReturnType<typeof listen>>["server"] | undefined;
  let url: string;
  let firstKey: Awaited<ReturnType<typeof issueApiKey>> | undefined;
  let metricsServer: MetricsServer | undefined;
  try {
    ({ server, url } = await listen(api, { port, host, trustProxy: values["trust-proxy"], limits }));
    // Made once the server listens, so a start that fails leaves no key nobody was shown.
    firstKey =
      embedded && (await store.apiKeys.count()) === 0
        ? await issueApiKey(store, { organisation: "Demo", mode: "test" })
        : undefined;
    metricsServer = metrics
      ? await startMetricsServer({ metrics, port: metricsPort as number, host: metricsHost })
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
  if (metricsServer) logger.info(`metrics: ${metricsServer.url}`, { metricsUrl: metricsServer.url });
  else logger.info("metrics: off (--metrics-port N turns them on)");
  // The last line of the start: tests and scripts wait for it.
  logger.info(`data: ${store.dataDir ?? "PostgreSQL (DATABASE_URL)"}`, { dataDir: store.dataDir ?? null });
  const shutdown = gracefulShutdown(server, incasso, shutdownSeconds, logger, metricsServer);
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

/** A TCP port from 0 to 65535; undefined when absent. */
function portNumber(value: string | undefined, flag: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const port = Number(value);
  if (!/^[0-9]{1,5}$/.test(value) || port > 65535) {
    throw new Error(`${flag} must be an integer from 0 to 65535, not ${value}`);
  }
  return port;
}

/**
 * The test key `serve` makes on an empty data directory, shown once. It is the one secret written
 * past the log's redaction, on purpose (decision operations-logs): a test-mode key of a local data
 * directory, and the operator has no other way to see it. The line says so in `firstKey`.
 */
function showFirstKey(logger: IncassoLogger, key: string, url: string): void {
  const line = {
    level: "info",
    time: new Date().toISOString(),
    pid: process.pid,
    firstKey: key,
    msg: "created a test key for organisation Demo; it is shown only now",
  };
  if (process.stdout.isTTY) {
    process.stdout.write(
      `  ${line.msg}:\n  ${key}\n  try: curl -H "Authorization: Bearer ${key}" ${url}/ping\n`,
    );
    return;
  }
  process.stdout.write(`${JSON.stringify(line)}\n`);
  logger.info(`try: curl ${url}/ping, with the key as Authorization: Bearer`);
}

/** A whole number of seconds, 0 or more; 30 when absent. */
function nonNegativeSeconds(value: string | undefined, flag: string): number {
  if (value === undefined || value === "") return 30;
  if (!/^[0-9]{1,6}$/.test(value)) throw new Error(`${flag} must be a whole number of seconds, not ${value}`);
  return Number(value);
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

async function migrateCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { ...STORAGE_OPTIONS }, strict: true });
  const applied = await withOperations(values, "migrate", (ops) => ops.migrate());
  const target = storageTarget(values);
  console.log(
    applied.length === 0
      ? `The schema is up to date (${"dataDir" in target ? target.dataDir : "PostgreSQL"}).`
      : `Applied migrations ${applied.join(", ")}.`,
  );
}

async function keys(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      organisation: { type: "string" },
      "creditor-name": { type: "string" },
      mode: { type: "string" },
      visibility: { type: "string" },
      "creditor-management": { type: "boolean", default: false },
      "per-minute": { type: "string" },
      "per-day": { type: "string" },
      json: { type: "boolean", default: false },
      ...STORAGE_OPTIONS,
    },
    allowPositionals: true,
    strict: true,
  });
  const flags: StorageFlags = values;
  if (sub === "create") {
    const mode = oneOf(required(values.mode, "--mode"), ["live", "test"] as const, "--mode") as
      | "live"
      | "test";
    const visibility = oneOf(values.visibility, ["own", "organisation"] as const, "--visibility");
    const perMinute = positiveInt(values["per-minute"], "--per-minute");
    const perDay = positiveInt(values["per-day"], "--per-day");
    const created = await withOperations(flags, "keys", (ops) =>
      ops.createKey({
        organisation: required(values.organisation, "--organisation"),
        mode,
        ...(values["creditor-name"] !== undefined ? { creditor_name: values["creditor-name"] } : {}),
        ...(visibility ? { visibility } : {}),
        creditor_management: values["creditor-management"],
        ...(perMinute ? { per_minute: perMinute } : {}),
        ...(perDay ? { per_day: perDay } : {}),
      }),
    );
    if (values.json) return print(created);
    if (created.organisation_created) {
      console.log(`Created organisation ${created.organisation} (creditor ${created.creditor_name}).`);
    }
    console.log(`API key ${created.id}: ${keyLine(created)}`);
    console.log("The key is shown once; store it now:");
    console.log(created.key);
    return;
  }
  if (sub === "list") {
    const list = await withOperations(flags, "keys", (ops) => ops.listKeys());
    if (values.json) return print(list);
    if (list.length === 0)
      console.log("No API keys yet. Create one with: incasso keys create --organisation NAME --mode test");
    for (const k of list) console.log(keyLine(k));
    return;
  }
  if (sub === "revoke") {
    const id = positionals[0];
    if (id === undefined || positionals.length !== 1) throw new Error("keys revoke takes exactly one key id");
    const revoked = await withOperations(flags, "keys", (ops) => ops.revokeKey(id));
    if (values.json) return print(revoked);
    console.log(`Revoked ${revoked.id} (${revoked.organisation}) at ${revoked.revoked_at}.`);
    return;
  }
  throw new Error(`keys needs create, list or revoke${sub ? `, not "${sub}"` : ""}`);
}

async function udf(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      organisation: { type: "string" },
      name: { type: "string" },
      type: { type: "string" },
      json: { type: "boolean", default: false },
      ...STORAGE_OPTIONS,
    },
    strict: true,
  });
  const organisation = required(values.organisation, "--organisation");
  if (sub === "set") {
    const def = await withOperations(values, "udf", (ops) =>
      ops.setUdf({
        organisation,
        name: required(values.name, "--name"),
        type: required(values.type, "--type"),
      }),
    );
    if (values.json) return print(def);
    console.log(`Field ${def.name} (${def.type}) is set for ${organisation}.`);
    return;
  }
  if (sub === "list") {
    const defs = await withOperations(values, "udf", (ops) => ops.listUdf(organisation));
    if (values.json) return print(defs);
    if (defs.length === 0) console.log(`${organisation} has no custom case fields.`);
    for (const d of defs) console.log(`${d.name}  ${d.type}`);
    return;
  }
  if (sub === "remove") {
    const name = required(values.name, "--name");
    await withOperations(values, "udf", (ops) => ops.removeUdf({ organisation, name }));
    if (!values.json) console.log(`Field ${name} is removed for ${organisation}.`);
    return;
  }
  throw new Error(`udf needs set, list or remove${sub ? `, not "${sub}"` : ""}`);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(HELP);
    return;
  }
  if (command === "--version" || command === "-v") {
    process.stdout.write(`${pkg.version}\n`);
    return;
  }
  if (command === "serve") return serve(rest);
  if (command === "migrate") return migrateCommand(rest);
  if (command === "keys") return keys(rest);
  if (command === "udf") return udf(rest);
  if (command === "webhooks") return webhooksCommand(rest);
  if (command === "worker") return workerCommand(rest);
  if (command === "cases") return casesCommand(rest);
  if (command === "tasks") return tasksCommand(rest);
  process.stderr.write(`incasso: unknown command "${command}"\n\n${HELP}`);
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`incasso: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
