/**
 * Where incasso logs what a client must not see: unexpected errors, failing checkers, jobs that
 * failed. The one logger shape of every package: a part that needs less asks for a `Pick` of it
 * (the order engine only warns), so one object, such as the app's pino logger, serves them all.
 *
 * @example
 * const logger: Logger = { info() {}, warn: console.warn, error: console.error };
 */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}
