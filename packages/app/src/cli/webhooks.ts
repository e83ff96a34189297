import { parseArgs } from "node:util";
import { isDataDirHeld, isDataDirLockedError, openStore, type SqlStore } from "@incasso/store-sql";
import { openStoreFor, type StorageFlags, secretKeyFromEnv, storageTarget } from "../internal/cli-store.js";
import { INCASSO_MIGRATIONS } from "../internal/incasso-migrations.js";
import { reportSecretsAtRest } from "../internal/secrets-at-rest.js";
import { parseLogLevel } from "../logging/log-level.js";
import { createPinoLogger } from "../logging/pino-logger.js";
import { workerEventLogs } from "../logging/worker-event-logs.js";
import { directOperations, type OperatorOperations } from "../operator/operations.js";
import { readOperatorEndpoint, remoteOperations } from "../operator/operator-client.js";
import { allowPrivateWebhookTargets } from "../webhooks/allow-private-targets.js";
import { createWebhookDispatcher } from "../webhooks/webhook-dispatcher.js";
import type {
  WebhookAttemptSummary,
  WebhookDeliverySummary,
  WebhookOperationsOptions,
  WebhookSendSummary,
} from "../webhooks/webhook-operations.js";
import { cliLetterRunner } from "./letters.js";

/**
 * The help lines of the webhook commands, for the CLI's help text.
 *
 * @example
 * process.stdout.write(WEBHOOKS_HELP);
 */
export const WEBHOOKS_HELP = `  incasso webhooks set --organisation NAME --url URL [--secret S] [--json]
                                        register the organisation's endpoint; a secret is
                                        generated when none is given and shown once
  incasso webhooks list [--json]        list endpoints (secrets as hints only)
  incasso webhooks ping --organisation NAME [--json]
                                        send a ping event now
  incasso webhooks deliveries [--failed] [--organisation NAME] [--limit N] [--event ID] [--json]
                                        events and their delivery state; --event shows its attempts
  incasso webhooks redeliver EVENT_ID [--json]
                                        send an event again with a fresh round of attempts
  incasso worker [--concurrency N] [--poll-interval-ms N] [--lease-seconds N] [--timeout-ms N]
                 [--retry-schedule S,S,...] [--letter-concurrency N]
                 [--no-webhook-dispatcher] [--no-letter-runner] [--log-level LEVEL]
                                        deliver webhooks and make the 14-day letters of
                                        pre-incasso orders in a process of its own; logs as
                                        serve does (JSON lines, INCASSO_LOG_LEVEL)
  Webhook sending (serve, worker, ping, redeliver): --allow-private-webhook-targets or
  INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS=1 allows loopback and private networks (development only).
  serve --no-webhook-dispatcher leaves delivery to separate workers, serve --no-letter-runner
  the 14-day letters.
`;

const STORAGE_OPTIONS = {
  "data-dir": { type: "string" },
  "database-url": { type: "string" },
} as const;

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === "") throw new Error(`${flag} is required`);
  return value;
}

function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]{0,8}$/.test(value)) throw new Error(`${flag} must be a positive integer, not ${value}`);
  return Number(value);
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Runs `fn` with the operator operations like every other command (through a running server's
 * operator endpoint, else on the store opened here), with the webhook sending settings of this
 * command for the direct case.
 */
async function withWebhookOperations<T>(
  flags: StorageFlags,
  webhooks: WebhookOperationsOptions,
  fn: (operations: OperatorOperations) => Promise<T>,
): Promise<T> {
  const target = storageTarget(flags);
  const remote = (dataDir: string) => {
    const info = readOperatorEndpoint(dataDir);
    if (info === undefined) {
      throw new Error(
        `The data directory ${dataDir} is in use by process ${isDataDirHeld(dataDir)?.pid ?? "?"}, which offers no operator endpoint.`,
      );
    }
    return fn(remoteOperations(info));
  };
  if ("dataDir" in target && isDataDirHeld(target.dataDir)) return remote(target.dataDir);
  let store: SqlStore;
  try {
    store = await openStore({
      ...target,
      lockCommand: "webhooks",
      migrations: INCASSO_MIGRATIONS,
      ...secretKeyFromEnv(),
    });
  } catch (error) {
    if ("dataDir" in target && isDataDirLockedError(error)) return remote(target.dataDir);
    throw error;
  }
  try {
    return await fn(directOperations(store, { webhooks }));
  } finally {
    await store.close();
  }
}

function attemptLine(a: WebhookAttemptSummary): string {
  const result =
    a.outcome === null
      ? "in flight"
      : a.outcome === "delivered"
        ? `delivered (HTTP ${a.status_code} in ${a.duration_ms} ms)`
        : a.outcome === "lease_expired"
          ? "lease expired: its dispatcher stopped before recording a result"
          : `failed (${a.error})`;
  const next = a.next_attempt_at ? `; next attempt at ${a.next_attempt_at}` : "";
  return `attempt ${a.attempt} at ${a.started_at} by ${a.owner} to ${a.url ?? "(no endpoint)"}: ${result}${next}`;
}

function deliveryLine(d: WebhookDeliverySummary): string {
  const last =
    d.state === "delivered"
      ? `HTTP ${d.last_status}`
      : d.state === "pending" && d.next_attempt_at
        ? `next attempt at ${d.next_attempt_at}${d.last_error ? ` (last: ${d.last_error})` : ""}`
        : (d.last_error ?? "");
  return `${d.event_id}  ${d.created_at}  ${d.organisation}  ${d.type}  ${d.state}  ${d.attempts} attempt${d.attempts === 1 ? "" : "s"}${last ? `  ${last}` : ""}`;
}

function reportSend(label: string, sent: WebhookSendSummary): void {
  if (sent.attempt === null) {
    console.log(
      `${label} ${sent.event.event_id} is queued (${sent.event.state}); a running dispatcher is delivering it.`,
    );
    return;
  }
  console.log(`${label} ${sent.event.event_id}: ${attemptLine(sent.attempt)}.`);
  // A failed attempt is retried by the dispatchers; the exit status tells scripts it did not arrive yet.
  if (sent.attempt.outcome !== "delivered") process.exitCode = 1;
}

/**
 * `incasso webhooks set|list|ping|deliveries|redeliver`.
 *
 * @example
 * await webhooksCommand(["list", "--data-dir", ".data"]);
 */
export async function webhooksCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      organisation: { type: "string" },
      url: { type: "string" },
      secret: { type: "string" },
      failed: { type: "boolean", default: false },
      limit: { type: "string" },
      event: { type: "string" },
      json: { type: "boolean", default: false },
      "allow-private-webhook-targets": { type: "boolean", default: false },
      ...STORAGE_OPTIONS,
    },
    allowPositionals: true,
    strict: true,
  });
  const webhooks: WebhookOperationsOptions = {
    allowPrivateTargets: allowPrivateWebhookTargets(values["allow-private-webhook-targets"]),
  };
  const run = <T>(fn: (ops: OperatorOperations) => Promise<T>) => withWebhookOperations(values, webhooks, fn);
  if (sub === "set") {
    const organisation = required(values.organisation, "--organisation");
    const url = required(values.url, "--url");
    const set = await run((ops) =>
      ops.setWebhook({
        organisation,
        url,
        ...(values.secret !== undefined ? { secret: values.secret } : {}),
      }),
    );
    if (values.json) return print(set);
    console.log(`Webhook endpoint of ${set.organisation}: ${set.url}`);
    if (set.url.startsWith("http:")) {
      console.log("  note: plain http sends the events unencrypted; use https outside local development.");
    }
    if (set.secret) {
      console.log("The signing secret is shown once; give it to the client now:");
      console.log(set.secret);
    } else console.log(`Signing with the secret given (${set.secret_hint}).`);
    return;
  }
  if (sub === "list") {
    const list = await run((ops) => ops.listWebhooks());
    if (values.json) return print(list);
    if (list.length === 0) console.log("No webhook endpoints yet. Register one with: incasso webhooks set");
    for (const e of list)
      console.log(`${e.organisation}  ${e.url}  ${e.secret_hint}  updated ${e.updated_at}`);
    return;
  }
  if (sub === "ping") {
    const organisation = required(values.organisation, "--organisation");
    const sent = await run((ops) => ops.pingWebhook({ organisation }));
    if (values.json) {
      if (sent.attempt !== null && sent.attempt.outcome !== "delivered") process.exitCode = 1;
      return print(sent);
    }
    return reportSend("Ping", sent);
  }
  if (sub === "deliveries") {
    if (values.event !== undefined) {
      const eventId = values.event;
      const attempts = await run((ops) => ops.listAttempts({ event_id: eventId }));
      if (values.json) return print(attempts);
      if (attempts.length === 0) console.log(`${eventId} has no attempts yet.`);
      for (const a of attempts) console.log(attemptLine(a));
      return;
    }
    const limit = positiveInt(values.limit, "--limit");
    const list = await run((ops) =>
      ops.listDeliveries({
        failed: values.failed,
        ...(values.organisation !== undefined ? { organisation: values.organisation } : {}),
        ...(limit ? { limit } : {}),
      }),
    );
    if (values.json) return print(list);
    if (list.length === 0) console.log(values.failed ? "No failed deliveries." : "No webhook events yet.");
    for (const d of list) console.log(deliveryLine(d));
    return;
  }
  if (sub === "redeliver") {
    const eventId = positionals[0];
    if (eventId === undefined || positionals.length !== 1)
      throw new Error("webhooks redeliver takes exactly one event id");
    const sent = await run((ops) => ops.redeliverWebhook({ event_id: eventId }));
    if (values.json) {
      if (sent.attempt !== null && sent.attempt.outcome !== "delivered") process.exitCode = 1;
      return print(sent);
    }
    return reportSend("Redelivery of", sent);
  }
  throw new Error(`webhooks needs set, list, ping, deliveries or redeliver${sub ? `, not "${sub}"` : ""}`);
}

function parseSchedule(value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const waits = value.split(",").map((s) => Number(s.trim()));
  if (waits.some((w) => !Number.isFinite(w) || w < 0)) {
    throw new Error(`--retry-schedule must be comma-separated seconds, not ${value}`);
  }
  return waits;
}

/**
 * `incasso worker`: a webhook dispatcher and a letter runner (the 14-day letters of pre-incasso
 * orders, decision case-system-wik-letter-jobs) in a process of their own, until SIGINT or
 * SIGTERM; `--no-webhook-dispatcher` or `--no-letter-runner` leaves one out. On an embedded data
 * directory it needs the directory to itself, so with a running server use PostgreSQL.
 *
 * @example
 * await workerCommand(["--database-url", "postgres://postgres@127.0.0.1:5432/incasso"]);
 */
export async function workerCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      "allow-private-webhook-targets": { type: "boolean", default: false },
      concurrency: { type: "string" },
      "poll-interval-ms": { type: "string" },
      "lease-seconds": { type: "string" },
      "timeout-ms": { type: "string" },
      "retry-schedule": { type: "string" },
      "letter-concurrency": { type: "string" },
      "no-webhook-dispatcher": { type: "boolean", default: false },
      "no-letter-runner": { type: "boolean", default: false },
      "log-level": { type: "string" },
      ...STORAGE_OPTIONS,
    },
    strict: true,
  });
  if (values["no-webhook-dispatcher"] && values["no-letter-runner"]) {
    throw new Error("--no-webhook-dispatcher and --no-letter-runner leave the worker nothing to do");
  }
  const logger = createPinoLogger({
    level: parseLogLevel(values["log-level"] ?? process.env.INCASSO_LOG_LEVEL),
  });
  const events = workerEventLogs(logger);
  const concurrency = positiveInt(values.concurrency, "--concurrency");
  const letterConcurrency = positiveInt(values["letter-concurrency"], "--letter-concurrency");
  const pollIntervalMs = positiveInt(values["poll-interval-ms"], "--poll-interval-ms");
  const leaseSeconds = positiveInt(values["lease-seconds"], "--lease-seconds");
  const timeoutMs = positiveInt(values["timeout-ms"], "--timeout-ms");
  const scheduleSeconds = parseSchedule(values["retry-schedule"]);
  let store: SqlStore;
  try {
    store = await openStoreFor(values, "worker");
  } catch (error) {
    if (isDataDirLockedError(error)) {
      throw new Error(
        `${error.message} The server on this directory already delivers webhooks; run separate workers on PostgreSQL (--database-url).`,
      );
    }
    throw error;
  }
  // The worker signs the deliveries, so it says how their secrets are kept, as serve does.
  if (!values["no-webhook-dispatcher"]) await reportSecretsAtRest(store, logger);
  const dispatcher = values["no-webhook-dispatcher"]
    ? undefined
    : createWebhookDispatcher({
        store,
        allowPrivateTargets: allowPrivateWebhookTargets(values["allow-private-webhook-targets"]),
        logger,
        onAttempt: events.onAttempt,
        ...(concurrency ? { concurrency } : {}),
        ...(pollIntervalMs ? { pollIntervalMs } : {}),
        ...(leaseSeconds ? { leaseSeconds } : {}),
        ...(timeoutMs ? { timeoutMs } : {}),
        ...(scheduleSeconds ? { scheduleSeconds } : {}),
      });
  const letters = values["no-letter-runner"]
    ? undefined
    : cliLetterRunner(store, { logger, ...(letterConcurrency ? { concurrency: letterConcurrency } : {}) });
  dispatcher?.start();
  letters?.start();
  const where = store.dataDir ?? "PostgreSQL (DATABASE_URL)";
  if (dispatcher) {
    logger.info(`incasso worker ${dispatcher.owner} delivering webhooks from ${where}`, {
      owner: dispatcher.owner,
    });
  }
  if (letters) {
    logger.info(`incasso worker ${letters.owner} making 14-day letters from ${where}`, {
      owner: letters.owner,
    });
  }
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      void Promise.allSettled([dispatcher?.stop(), letters?.stop()])
        .then(() => store.close())
        .finally(resolve);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}
