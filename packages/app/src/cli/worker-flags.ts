import { ALLOW_PRIVATE_TARGETS_FLAG, LOG_LEVEL_FLAG, OPENAI_FLAGS, STORAGE_FLAGS } from "./common-flags.js";
import { DATABASE_TIMEOUT_FLAGS } from "./database-flags.js";
import type { FlagSpec } from "./flag-spec.js";

/**
 * Every flag of `incasso worker`, in the order of its help; docs/configuration.md lists them all.
 *
 * @example
 * WORKER_FLAGS.find((f) => f.name === "concurrency")?.env; // "INCASSO_WORKER_CONCURRENCY"
 */
export const WORKER_FLAGS: readonly FlagSpec[] = [
  {
    name: "concurrency",
    value: "N",
    env: "INCASSO_WORKER_CONCURRENCY",
    defaultText: "16",
    description: "webhook deliveries at once",
  },
  {
    name: "poll-interval-ms",
    value: "MS",
    env: "INCASSO_WORKER_POLL_INTERVAL_MS",
    defaultText: "1000",
    description: "how often an idle dispatcher looks for due events",
  },
  {
    name: "lease-seconds",
    value: "N",
    env: "INCASSO_WORKER_LEASE_SECONDS",
    defaultText: "60",
    description: "how long a claimed event is held before another worker may take it",
  },
  {
    name: "timeout-ms",
    value: "MS",
    env: "INCASSO_WORKER_TIMEOUT_MS",
    defaultText: "10000",
    description: "time-out of one delivery attempt",
  },
  {
    name: "retry-schedule",
    value: "S,S,...",
    env: "INCASSO_WORKER_RETRY_SCHEDULE",
    defaultText: "60,300,1800,7200,43200",
    description: "seconds to wait after each failed attempt",
  },
  {
    name: "letter-concurrency",
    value: "N",
    env: "INCASSO_WORKER_LETTER_CONCURRENCY",
    defaultText: "4",
    description: "14-day letters made at once",
  },
  {
    name: "no-webhook-dispatcher",
    env: "INCASSO_NO_WEBHOOK_DISPATCHER",
    description: "deliver no webhooks: letters only",
  },
  {
    name: "no-letter-runner",
    env: "INCASSO_NO_LETTER_RUNNER",
    description: "make no 14-day letters: webhooks only",
  },
  LOG_LEVEL_FLAG,
  ALLOW_PRIVATE_TARGETS_FLAG,
  ...OPENAI_FLAGS,
  ...STORAGE_FLAGS,
  ...DATABASE_TIMEOUT_FLAGS,
];
