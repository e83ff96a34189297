/** The levels `--log-level` and INCASSO_LOG_LEVEL take, most verbose first. */
export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;

/**
 * A log level by name.
 *
 * @example
 * const level: LogLevel = "warn";
 */
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The level from a flag or variable; `info` when absent. Throws with the allowed names otherwise.
 *
 * @example
 * parseLogLevel(process.env.INCASSO_LOG_LEVEL); // "info" unless set
 */
export function parseLogLevel(value: string | undefined, flag = "--log-level"): LogLevel {
  if (value === undefined || value === "") return "info";
  const level = value.toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new Error(`${flag} must be ${LOG_LEVELS.join(", ")}, not ${value}`);
  }
  return level as LogLevel;
}
