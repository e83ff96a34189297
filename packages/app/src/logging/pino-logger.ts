import type { Logger } from "@incasso/server";
import pino, { type DestinationStream, type Logger as Pino } from "pino";
import type PinoPretty from "pino-pretty";
import { optionalModule } from "../internal/optional-module.js";
import type { LogLevel } from "./log-level.js";
import { REDACTED, scrubSecrets } from "./secret-scrubber.js";

/**
 * Fields that hold a secret by name, censored whatever their value (pino's `redact`); the value
 * scrubber catches a secret under any other name (decision operations-logs).
 */
export const LOG_REDACT_PATHS: readonly string[] = [
  "key",
  "*.key",
  "apiKey",
  "*.apiKey",
  "secret",
  "*.secret",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  'headers["authorization"]',
  "OPENAI_API_KEY",
  "*.OPENAI_API_KEY",
  "openaiApiKey",
  "*.openaiApiKey",
];

/**
 * Options of {@link createPinoLogger}.
 *
 * @example
 * const options: PinoLoggerOptions = { level: "debug", pretty: false };
 */
export interface PinoLoggerOptions {
  /** Default `info`. */
  level?: LogLevel;
  /** Human-readable lines instead of JSON; default when stdout is a terminal. */
  pretty?: boolean;
  /** Where JSON lines go; default stdout, written synchronously (nothing lost on exit). */
  destination?: DestinationStream;
  /** Exact secret values to scrub as well; default the value of OPENAI_API_KEY, if set. */
  secrets?: readonly string[];
}

/**
 * The service's logger backed by pino, with the pino instance for a host that wants it.
 *
 * @example
 * const logger: IncassoLogger = createPinoLogger();
 * logger.pino.child({ component: "my-host" }).info("hello");
 */
export interface IncassoLogger extends Logger {
  readonly pino: Pino;
  debug(message: string, fields?: Record<string, unknown>): void;
}

/**
 * A structured logger: one JSON object a line (level as a word, ISO time, pid, msg, fields), or
 * pretty lines on a terminal; secrets redacted by field name and scrubbed from every string
 * (API keys, whsec_ secrets, Authorization credentials, OpenAI keys). `incasso serve` and
 * `incasso worker` log through it.
 *
 * @example
 * import { createIncasso, createPinoLogger } from "@incasso/app";
 * const logger = createPinoLogger({ level: "info" });
 * const incasso = await createIncasso(undefined, { logger, logRequests: true });
 */
export function createPinoLogger(options: PinoLoggerOptions = {}): IncassoLogger {
  const level = options.level ?? "info";
  const exact = options.secrets ?? [process.env.OPENAI_API_KEY ?? ""].filter((s) => s !== "");
  // pino-pretty is an optional dependency: without it a terminal gets the JSON lines too.
  const pretty =
    (options.pretty ?? process.stdout.isTTY === true)
      ? optionalModule<{ default?: typeof PinoPretty } & typeof PinoPretty>("pino-pretty")
      : undefined;
  const build = pretty?.default ?? pretty;
  const destination =
    options.destination ??
    (build
      ? build({ colorize: true, sync: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" })
      : pino.destination({ dest: 1, sync: true }));
  const instance = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...LOG_REDACT_PATHS], censor: REDACTED },
      hooks: {
        // Every argument of every call, the message included, passes the value scrubber.
        logMethod(args, method) {
          const scrubbed = args.map((a) => scrubSecrets(a, exact)) as Parameters<typeof method>;
          return method.apply(this, scrubbed);
        },
      },
    },
    destination,
  );
  const log =
    (name: "debug" | "info" | "warn" | "error") => (message: string, fields?: Record<string, unknown>) =>
      fields === undefined ? instance[name](message) : instance[name](fields, message);
  return { pino: instance, debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}
