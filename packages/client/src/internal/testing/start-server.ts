// Every line that composes and starts the reference server for this package's tests lives in this
// one file, so that moving the server's composition to another package means editing only here.
// Test-only: never imported by src/index.ts, so nothing here reaches the published bundle.
import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBuiltInCaseSystem, openCaseSystemStore } from "@incasso/case-system";
import { issueApiKey } from "@incasso/core";
import { createApi, type IncassoApi, type RateLimiter } from "@incasso/server";
import { listen } from "@incasso/server/node";
import type { SqlStore } from "@incasso/store-sql";

/**
 * Options of {@link startServer}.
 *
 * @example
 * const server = await startServer({ rateWindowSeconds: 1 });
 */
export interface StartServerOptions {
  /**
   * Shrinks every per-minute rate-limit window to this many seconds, so a test can wait out a 429
   * (`Retry-After` is at most this). Default: real minutes.
   */
  rateWindowSeconds?: number;
}

/**
 * Keys issued by {@link startServer}, one organisation each unless noted.
 *
 * @example
 * const { live } = server.keys;
 */
export interface ServerKeys {
  /** Live key with creditor management on. */
  live: string;
  /** Test key of the same organisation as `live`. */
  test: string;
  /** Live key with creditor management off (its own organisation). */
  plain: string;
  /** Live key allowing one POST /orders per rate window (its own organisation). */
  slow: string;
}

/**
 * A reference server running on 127.0.0.1 on a free port, on a store in a temporary data directory.
 *
 * @example
 * const server = await startServer();
 * const client = createIncassoClient({ baseUrl: server.url, apiKey: server.keys.live });
 * await server.close();
 */
export interface RunningServer {
  /** Base URL with the version segment, such as `http://127.0.0.1:41234/api/v1`. */
  url: string;
  host: string;
  port: number;
  keys: ServerKeys;
  /** Issues another live key in an organisation of its own. */
  issueKey(
    organisation: string,
    options?: { perMinute?: number; creditorManagement?: boolean },
  ): Promise<string>;
  /** Runs a counting query on the store, for proving what is (not) stored. */
  count(sql: string, params?: unknown[]): Promise<number>;
  close(): Promise<void>;
}

/**
 * Counts windows of `seconds` where the API asks for a minute (longer windows stay as asked). A
 * window starts at the first request of its key rather than on the clock, so two requests sent
 * within `seconds` of each other always share one window and a test's 429 is certain.
 */
function shortWindows(seconds: number): RateLimiter {
  const windows = new Map<string, { start: number; count: number; ms: number }>();
  return {
    hit(key, limit, window, now) {
      const ms = (window === 60 ? seconds : window) * 1000;
      const t = now.getTime();
      let w = windows.get(key);
      if (!w || t >= w.start + w.ms) {
        w = { start: t, count: 0, ms };
        windows.set(key, w);
      }
      w.count++;
      return {
        allowed: w.count <= limit,
        limit,
        remaining: Math.max(0, limit - w.count),
        resetSeconds: Math.max(1, Math.ceil((w.start + w.ms - t) / 1000)),
      };
    },
  };
}

function composeApi(store: SqlStore, options: StartServerOptions): IncassoApi {
  const limiter =
    options.rateWindowSeconds === undefined ? undefined : shortWindows(options.rateWindowSeconds);
  return createApi({
    store,
    caseSystem: createBuiltInCaseSystem({ store }),
    ...(limiter ? { rateLimiter: limiter } : {}),
    tools: limiter ? { wik: { rateLimit: { limiter } }, rolRouter: { rateLimit: { limiter } } } : {},
    logger: { info() {}, warn() {}, error() {} },
  });
}

/**
 * Starts the reference server: `openStore` on a fresh temporary data directory, `createApi` with
 * the built-in case system, and the node:http server on 127.0.0.1 port 0.
 *
 * @example
 * const server = await startServer();
 * afterAll(() => server.close());
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "incasso-client-"));
  const store = await openCaseSystemStore({ dataDir });
  let server: Server;
  try {
    const api = composeApi(store, options);
    const started = await listen(api, { port: 0, host: "127.0.0.1" });
    server = started.server;
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const issueKey: RunningServer["issueKey"] = async (organisation, keyOptions = {}) =>
      (
        await issueApiKey(store, {
          organisation,
          mode: "live",
          creditorManagement: keyOptions.creditorManagement ?? false,
          ...(keyOptions.perMinute ? { perMinute: keyOptions.perMinute } : {}),
        })
      ).key;
    const live = await issueApiKey(store, {
      organisation: "Client Acme",
      creditorName: "Acme Creditor BV",
      mode: "live",
      creditorManagement: true,
      perMinute: 1000,
    });
    const test = await issueApiKey(store, { organisation: "Client Acme", mode: "test", perMinute: 1000 });
    const keys: ServerKeys = {
      live: live.key,
      test: test.key,
      plain: await issueKey("Client Plain", { perMinute: 1000 }),
      slow: await issueKey("Client Slow", { perMinute: 1 }),
    };
    return {
      url: started.url,
      host: "127.0.0.1",
      port,
      keys,
      issueKey,
      async count(sql, params = []) {
        const { rows } = await store.database.query<{ n: string | number }>(sql, params);
        return Number(rows[0]?.n ?? 0);
      },
      async close() {
        await new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        });
        await store.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The OpenAPI document the reference server serves with the order and creditor endpoints on (they
 * need a store), for generating and checking the client's types.
 *
 * @example
 * const document = await servedOpenApiDocument();
 */
export async function servedOpenApiDocument(): Promise<ReturnType<IncassoApi["openapi"]>> {
  const store = await openCaseSystemStore();
  try {
    return composeApi(store, {}).openapi();
  } finally {
    await store.close();
  }
}
