import { isDataDirLockedError, type SqlStore } from "@incasso/store-sql";
import { databaseTimeouts } from "../database-timeouts.js";
import { openStoreFor } from "../internal/cli-store.js";
import { reportSecretsAtRest } from "../internal/secrets-at-rest.js";
import { parseLogLevel } from "../logging/log-level.js";
import { createPinoLogger } from "../logging/pino-logger.js";
import { workerEventLogs } from "../logging/worker-event-logs.js";
import { createWebhookDispatcher } from "../webhooks/webhook-dispatcher.js";
import { documentAiSettings } from "./document-ai.js";
import type { FlagValues } from "./flag-spec.js";
import { positiveInt, text } from "./flag-values.js";
import { cliLetterRunner } from "./letters.js";
import { asUsage, UsageError } from "./usage-error.js";

function parseSchedule(value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const waits = value.split(",").map((s) => Number(s.trim()));
  if (waits.some((w) => !Number.isFinite(w) || w < 0)) {
    throw new UsageError(`--retry-schedule must be comma-separated seconds, not ${value}`);
  }
  return waits;
}

/**
 * The settings of `worker` from its flag values (flag, else variable; see WORKER_FLAGS).
 *
 * @example
 * workerSettings({ concurrency: "4" }, {}).concurrency; // 4
 */
export function workerSettings(values: FlagValues, env: Record<string, string | undefined> = process.env) {
  return asUsage(() => {
    if (values["no-webhook-dispatcher"] === true && values["no-letter-runner"] === true) {
      throw new UsageError("--no-webhook-dispatcher and --no-letter-runner leave the worker nothing to do");
    }
    return {
      logLevel: parseLogLevel(text(values, "log-level")),
      concurrency: positiveInt(values, "concurrency", "a positive whole number", 9),
      letterConcurrency: positiveInt(values, "letter-concurrency", "a positive whole number", 9),
      pollIntervalMs: positiveInt(values, "poll-interval-ms", "a positive whole number", 9),
      leaseSeconds: positiveInt(values, "lease-seconds", "a positive whole number", 9),
      timeoutMs: positiveInt(values, "timeout-ms", "a positive whole number", 9),
      scheduleSeconds: parseSchedule(text(values, "retry-schedule")),
      webhookDispatcher: values["no-webhook-dispatcher"] !== true,
      letterRunner: values["no-letter-runner"] !== true,
      allowPrivateTargets: values["allow-private-webhook-targets"] === true,
      ai: documentAiSettings(values, env),
      database: databaseTimeouts(values, env),
    };
  });
}

/**
 * `incasso worker`: a webhook dispatcher and a letter runner (the 14-day letters of pre-incasso
 * orders, decision case-system-wik-letter-jobs) in a process of their own, until SIGINT or
 * SIGTERM; `--no-webhook-dispatcher` or `--no-letter-runner` leaves one out. On an embedded data
 * directory it needs the directory to itself, so with a running server use PostgreSQL.
 *
 * @example
 * await workerCommand({ "database-url": "postgres://postgres@127.0.0.1:5432/incasso" });
 */
export async function workerCommand(values: FlagValues): Promise<void> {
  const settings = workerSettings(values);
  const logger = createPinoLogger({ level: settings.logLevel });
  const events = workerEventLogs(logger);
  let store: SqlStore;
  try {
    store = await openStoreFor(values, "worker", settings.database);
  } catch (error) {
    if (isDataDirLockedError(error)) {
      throw new Error(
        `${error.message} The server on this directory already delivers webhooks; run separate workers on PostgreSQL (--database-url).`,
      );
    }
    throw error;
  }
  // The worker signs the deliveries, so it says how their secrets are kept, as serve does.
  if (settings.webhookDispatcher) await reportSecretsAtRest(store, logger);
  const dispatcher = settings.webhookDispatcher
    ? createWebhookDispatcher({
        store,
        allowPrivateTargets: settings.allowPrivateTargets,
        logger,
        onAttempt: events.onAttempt,
        ...(settings.concurrency ? { concurrency: settings.concurrency } : {}),
        ...(settings.pollIntervalMs ? { pollIntervalMs: settings.pollIntervalMs } : {}),
        ...(settings.leaseSeconds ? { leaseSeconds: settings.leaseSeconds } : {}),
        ...(settings.timeoutMs ? { timeoutMs: settings.timeoutMs } : {}),
        ...(settings.scheduleSeconds ? { scheduleSeconds: settings.scheduleSeconds } : {}),
      })
    : undefined;
  const letters = settings.letterRunner
    ? cliLetterRunner(store, {
        logger,
        ...(settings.letterConcurrency ? { concurrency: settings.letterConcurrency } : {}),
      })
    : undefined;
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
  // Documents are checked and titles written while POST /orders is answered, so by serve; the
  // worker says what the same settings choose, so one environment file reads the same in both
  // (decision cli-configuration-variables).
  const ai = settings.ai.openai
    ? `OpenAI checker and OpenAI title writer (model ${settings.ai.model})`
    : "rules checker and template title writer (OPENAI_API_KEY turns on OpenAI)";
  logger.info(`documents: ${ai}; checked and written by serve while it answers POST /orders`, {
    documentChecker: settings.ai.openai ? "openai" : "rules",
    titleWriter: settings.ai.openai ? "openai" : "template",
  });
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
