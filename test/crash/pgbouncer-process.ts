// PgBouncer as a child process for the pooler suite: a pgbouncer.ini in a temporary directory
// (transaction pooling, trust authentication, 127.0.0.1 on a free port, no Unix socket), started
// in the foreground and stopped (SIGINT, then SIGKILL) by `stop`. PgBouncer refuses to run as
// root, so under root it is started with `-u nobody` and its directory is made readable for that
// user.
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where Debian and most distributions install the binary. */
const CANDIDATES = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer", "/usr/local/bin/pgbouncer"];

/**
 * The pgbouncer binary: TEST_PGBOUNCER when set, else the first of the usual places that exists.
 *
 * @example
 * const binary = findPgbouncer(); // "/usr/sbin/pgbouncer" or undefined
 */
export function findPgbouncer(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const given = env.TEST_PGBOUNCER;
  if (given !== undefined && given !== "") return existsSync(given) ? given : undefined;
  return CANDIDATES.find((path) => existsSync(path));
}

/** A free TCP port on 127.0.0.1 (bound once and released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/**
 * A running PgBouncer.
 *
 * @example
 * const bouncer = await startPgbouncer({ binary, upstream: { host: "127.0.0.1", port: 5432 } });
 * try { ... } finally { await bouncer.stop(); }
 */
export interface Pgbouncer {
  /** The port it listens on, on 127.0.0.1. */
  readonly port: number;
  /** Its process id (a benchmark reads its CPU time). */
  readonly pid: number | undefined;
  /** Its log so far (stderr and stdout), for a failing test's message. */
  log(): string;
  /** Stops it and removes its directory. */
  stop(): Promise<void>;
}

/**
 * Starts PgBouncer in transaction pooling mode in front of `upstream`, for every database
 * (`* = host=… port=…`), and waits until it accepts connections.
 *
 * @example
 * const bouncer = await startPgbouncer({ binary: "/usr/sbin/pgbouncer", upstream: { host: "127.0.0.1", port: 5432 } });
 */
export async function startPgbouncer(options: {
  binary: string;
  upstream: { host: string; port: number };
  poolMode?: "transaction" | "session";
  /** Server connections per database and user; default 4, fewer than the store's pool. */
  poolSize?: number;
}): Promise<Pgbouncer> {
  const dir = mkdtempSync(join(tmpdir(), "incasso-pgbouncer-"));
  chmodSync(dir, 0o777);
  const port = await freePort();
  const ini = join(dir, "pgbouncer.ini");
  writeFileSync(
    ini,
    [
      "[databases]",
      `* = host=${options.upstream.host} port=${options.upstream.port}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${join(dir, "users.txt")}`,
      `pidfile = ${join(dir, "pgbouncer.pid")}`,
      `pool_mode = ${options.poolMode ?? "transaction"}`,
      `default_pool_size = ${options.poolSize ?? 4}`,
      "max_client_conn = 200",
      "ignore_startup_parameters = extra_float_digits",
      "",
    ].join("\n"),
  );
  writeFileSync(join(dir, "users.txt"), '"postgres" ""\n');
  const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const child: ChildProcess = spawn(options.binary, [...(asRoot ? ["-u", "nobody"] : []), ini], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const stop = async () => {
    if (!gone) {
      child.kill("SIGINT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // Ready once its listening line is logged; bounded (100 × 100 ms).
  for (let i = 0; i < 100 && !gone && !output.includes("listening on"); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (gone || !output.includes("listening on")) {
    await stop();
    throw new Error(`pgbouncer did not start:\n${output}`);
  }
  return { port, pid: child.pid, log: () => output, stop };
}
