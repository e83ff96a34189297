/**
 * A command line the CLI refuses before doing anything: an unknown flag, a missing or malformed
 * value. It ends the process with the usage exit code (decision cli-exit-codes). `code` is
 * `usage_error` for the shape of the command line, `validation_error` (the API's code for a value
 * it refuses) for a flag's value.
 *
 * @example
 * throw new UsageError("--mode must be live or test, not prod");
 */
export class UsageError extends Error {
  readonly code: "usage_error" | "validation_error";
  /** Brand checked by isUsageError; no caller needs `instanceof`. */
  readonly isIncassoUsageError = true as const;

  constructor(message: string, code: UsageError["code"] = "validation_error") {
    super(message);
    this.name = "UsageError";
    this.code = code;
  }
}

/**
 * Whether a value is a {@link UsageError}.
 *
 * @example
 * isUsageError(new UsageError("--port is required")); // true
 */
export function isUsageError(value: unknown): value is UsageError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { isIncassoUsageError?: unknown }).isIncassoUsageError === true
  );
}

/**
 * Runs the step that turns flags into settings; whatever it throws is a usage error, because it
 * only reads the command line and the environment.
 *
 * @example
 * const level = asUsage(() => parseLogLevel(values["log-level"]));
 */
export function asUsage<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (isUsageError(error)) throw error;
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
