import { ALLOW_PRIVATE_TARGETS_FLAG, LOG_LEVEL_FLAG, OPENAI_FLAGS, STORAGE_FLAGS } from "./common-flags.js";
import { DATABASE_TIMEOUT_FLAGS } from "./database-flags.js";
import type { FlagSpec } from "./flag-spec.js";
import { IDEMPOTENCY_LEASE_FLAG } from "./idempotency-lease-flag.js";
import { SERVE_LIMIT_FLAGS } from "./serve-limits.js";

/**
 * Every flag of `incasso serve`, in the order of its help. A new setting is one more entry here
 * and one more line in serveSettings (serve-settings.ts); docs/configuration.md lists them all.
 *
 * @example
 * SERVE_FLAGS.find((f) => f.name === "port")?.env; // "INCASSO_PORT"
 */
export const SERVE_FLAGS: readonly FlagSpec[] = [
  {
    name: "port",
    short: "p",
    value: "N",
    env: "INCASSO_PORT",
    alsoEnv: ["PORT"],
    defaultText: "3000",
    description: "TCP port of the API",
  },
  {
    name: "host",
    value: "HOST",
    env: "INCASSO_HOST",
    alsoEnv: ["HOST"],
    defaultText: "127.0.0.1",
    description: "interface to listen on; 0.0.0.0 for every one",
  },
  {
    name: "trust-proxy",
    env: "INCASSO_TRUST_PROXY",
    description: "take the client address from X-Forwarded-For, behind a reverse proxy only",
  },
  {
    name: "cors-origins",
    value: "LIST",
    env: "INCASSO_CORS_ORIGINS",
    defaultText: "*",
    description: "origins that may call the public endpoints, comma-separated; empty: none",
  },
  {
    name: "cors-protected-origins",
    value: "LIST",
    env: "INCASSO_CORS_PROTECTED_ORIGINS",
    defaultText: "none",
    description: "origins that may call the endpoints that take a key",
  },
  {
    name: "shutdown-timeout",
    value: "SECONDS",
    env: "INCASSO_SHUTDOWN_TIMEOUT",
    defaultText: "30",
    description: "on SIGTERM/SIGINT, how long requests in flight may take to finish",
  },
  LOG_LEVEL_FLAG,
  {
    name: "metrics-port",
    value: "N",
    env: "INCASSO_METRICS_PORT",
    defaultText: "off",
    description: "serve GET /metrics, Prometheus text, on this port",
  },
  {
    name: "metrics-host",
    value: "HOST",
    env: "INCASSO_METRICS_HOST",
    defaultText: "127.0.0.1",
    description: "interface of the metrics port",
  },
  {
    name: "no-webhook-dispatcher",
    env: "INCASSO_NO_WEBHOOK_DISPATCHER",
    description: "deliver no webhooks here; run incasso worker",
  },
  {
    name: "no-letter-runner",
    env: "INCASSO_NO_LETTER_RUNNER",
    description: "make no 14-day letters here; run incasso worker",
  },
  {
    name: "no-pages",
    env: "INCASSO_NO_PAGES",
    description: "serve no API reference and no tool pages (/api/v1/docs, /tools)",
  },
  {
    name: "no-console",
    env: "INCASSO_NO_CONSOLE",
    description: "serve no operator console (/console)",
  },
  {
    name: "refuse-active-pdf",
    env: "INCASSO_REFUSE_ACTIVE_PDF",
    description:
      "refuse PDFs with JavaScript, Launch actions, embedded files or bytes before %PDF- (422 invalid_attachment) instead of accepting them with a warning",
  },
  {
    name: "ocr-budget",
    value: "MS",
    env: "INCASSO_OCR_BUDGET_MS",
    defaultText: "8000; 0 = no OCR",
    description: "time the scanned pages of one PDF attachment may take to be read by OCR",
  },
  ...SERVE_LIMIT_FLAGS,
  IDEMPOTENCY_LEASE_FLAG,
  ALLOW_PRIVATE_TARGETS_FLAG,
  ...OPENAI_FLAGS,
  ...STORAGE_FLAGS,
  ...DATABASE_TIMEOUT_FLAGS,
];
