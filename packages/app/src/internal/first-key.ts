import type { Logger } from "@incasso/server";

/**
 * The test key made on an empty embedded data directory, shown once, by `incasso serve` and by a
 * host of `createIncasso()`. It is the one secret written past the log's redaction, on purpose
 * (decision operations-logs): a test-mode key of a local data directory, and the operator has no
 * other way to see it. The line says so in `firstKey`.
 *
 * @example
 * showFirstKey(logger, "test_sk_…", "http://127.0.0.1:3000/api/v1");
 */
export function showFirstKey(logger: Logger, key: string, url: string): void {
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
