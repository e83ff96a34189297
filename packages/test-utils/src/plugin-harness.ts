import { randomBytes } from "node:crypto";
import { type HostPlugin, pluginMigrations } from "@incasso/app";
import { createBuiltInCaseSystem, openCaseSystemStore } from "@incasso/case-system";
import type { OrderHooks } from "@incasso/core";
import { getPdfEngine } from "@incasso/pdf-guard/node";
import { type CreateApiOptions, consoleLogger, createApi, type IncassoApi } from "@incasso/server";
import { mergeMigrations, type SqlStore, STORE_MIGRATIONS } from "@incasso/store-sql";
import { afterAll, beforeAll, describe } from "vitest";
import { hostTransports } from "./host-transports.js";
import { type FixtureKeys, fixtureKeys } from "./store-fixture.js";
import type { RunningTransport, Transport } from "./transport-types.js";

/**
 * What {@link describePlugin} runs: host plugins as `createIncasso` takes them (tables, routes,
 * order hooks, start and close) and any further options of `createApi` (`authenticate`,
 * `securitySchemes`, `rateLimiter`, plugins of routes only).
 *
 * @example
 * const subject: PluginSubject = { plugins: [agency.plugin], api: { authenticate: agency.authenticate } };
 */
export interface PluginSubject {
  plugins?: readonly HostPlugin[];
  api?: Omit<CreateApiOptions, "store" | "caseSystem">;
  /** The transports to run on; default every one ({@link hostTransports}). */
  transports?: readonly Transport[];
  /**
   * The PostgreSQL server to run on as well, each run in a schema of its own that is dropped
   * afterwards; default the TEST_DATABASE_URL variable. Without one the PostgreSQL run is skipped,
   * and its name says why; `false` leaves it out.
   */
  databaseUrl?: string | false;
}

/**
 * One transport's running API, as a test of {@link describePlugin} sees it. Read its fields inside
 * a test (they are filled before the first test of the transport runs).
 *
 * @example
 * const res = await t.request("/agency/hello", { headers: t.bearer() });
 */
export interface PluginHarness {
  /** The transport's name ("express", "fastify", …). */
  readonly transport: string;
  /** The API under test: the real API plus the plugins. */
  readonly api: IncassoApi;
  /**
   * The store, migrated with the plugins' tables: PGlite in memory, then a schema of its own on
   * PostgreSQL (`store.engine` says which).
   */
  readonly store: SqlStore;
  /** API keys of this transport's organisations ({@link FixtureKeys}); `live` is the usual caller. */
  readonly keys: FixtureKeys;
  /** Sends a request below the API's base path, as a client would, on this transport. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** `{ authorization: "Bearer …" }` for a fixture key; default `live`. */
  bearer(key?: keyof FixtureKeys): { authorization: string };
}

/**
 * Runs a host plugin through `createApi` on every transport (in-process fetch, node:http,
 * Express, Fastify, Azure Functions) and on both stores (embedded PGlite, and PostgreSQL when
 * `databaseUrl` or TEST_DATABASE_URL names one), and declares `tests` once per store and transport,
 * so a plugin author proves in a few lines that tables, routes, authentication and order hooks
 * behave the same wherever the API is mounted and whatever it stores in. Per store the plugins'
 * migrations are applied with incasso's own, their `start` runs before the first transport and
 * their `close` after the last; each transport gets keys of its own organisations.
 *
 * @example
 * describePlugin("agency", { plugins: [agency.plugin], api: { authenticate: agency.authenticate } }, (t) => {
 *   it("refuses claims under € 25", async () => {
 *     const res = await t.request("/orders", { method: "POST", headers: t.bearer(), body: JSON.stringify(order) });
 *     expect(res.status).toBe(422);
 *   });
 * });
 */
export function describePlugin(
  name: string,
  subject: PluginSubject,
  tests: (t: PluginHarness) => void,
): void {
  const plugins = subject.plugins ?? [];
  const migrations = mergeMigrations(STORE_MIGRATIONS, pluginMigrations(plugins));
  const databaseUrl =
    subject.databaseUrl === undefined ? process.env.TEST_DATABASE_URL : subject.databaseUrl || undefined;
  describe(name, () => {
    describeOnStore(name, subject, tests, {
      label: "PGlite",
      open: () => openCaseSystemStore({ migrations }),
    });
    if (subject.databaseUrl === false) return;
    if (databaseUrl === undefined) {
      describe.skip("PostgreSQL (skipped: set TEST_DATABASE_URL to run on PostgreSQL too)", () => {
        tests(unavailableHarness);
      });
      return;
    }
    const schema = `plugin_${randomBytes(6).toString("hex")}`;
    describeOnStore(name, subject, tests, {
      label: "PostgreSQL",
      open: () => openCaseSystemStore({ databaseUrl, schema, migrations }),
      drop: async (store) => {
        await store.database.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      },
    });
  });
}

// Declares the tests of one store: the store opened and the plugins started around every transport.
function describeOnStore(
  name: string,
  subject: PluginSubject,
  tests: (t: PluginHarness) => void,
  target: { label: string; open: () => Promise<SqlStore>; drop?: (store: SqlStore) => Promise<void> },
): void {
  const plugins = subject.plugins ?? [];
  let store: SqlStore | undefined;
  let started: HostPlugin[] = [];
  describe(target.label, () => {
    beforeAll(async () => {
      store = await target.open();
      for (const plugin of plugins) {
        await plugin.start?.({ store, logger: subject.api?.logger ?? consoleLogger });
        started.push(plugin);
      }
      // A PGlite store takes seconds to open, more on a loaded machine.
    }, 180_000);
    afterAll(async () => {
      // The last test's order handlers run after its answer: let them finish before the plugins
      // close and the store goes.
      if (store) await handlersSettled(store);
      for (const plugin of [...started].reverse()) await plugin.close?.();
      started = [];
      if (store) await target.drop?.(store);
      await store?.close();
      store = undefined;
    });
    for (const transport of subject.transports ?? hostTransports) {
      describe(transport.name, () => {
        let state: { api: IncassoApi; keys: FixtureKeys; running: RunningTransport } | undefined;
        const current = () => {
          if (state === undefined) throw new Error("describePlugin: read the harness inside a test.");
          return state;
        };
        beforeAll(async () => {
          if (store === undefined) throw new Error("describePlugin: the store did not open.");
          const hooks: OrderHooks[] = plugins.flatMap((p) => (p.orderHooks ? [p.orderHooks] : []));
          const own = subject.api?.orderHooks;
          const api = createApi({
            pdfEngine: getPdfEngine(),
            ...subject.api,
            store,
            caseSystem: createBuiltInCaseSystem({ store }),
            plugins: [...(subject.api?.plugins ?? []), ...plugins.flatMap((p) => (p.api ? [p.api] : []))],
            orderHooks: [
              ...(own === undefined ? [] : Array.isArray(own) ? own : [own as OrderHooks]),
              ...hooks,
            ],
          });
          const keys = await fixtureKeys(store, `${name} ${transport.name}`);
          state = { api, keys, running: await transport.start(api) };
        }, 60_000);
        afterAll(async () => {
          await state?.running.close();
          state = undefined;
        });
        tests({
          transport: transport.name,
          get api() {
            return current().api;
          },
          get store() {
            if (store === undefined) throw new Error("describePlugin: read the harness inside a test.");
            return store;
          },
          get keys() {
            return current().keys;
          },
          request: (path, init) => current().running.request(path, init),
          bearer: (key = "live") => ({ authorization: `Bearer ${current().keys[key]}` }),
        });
      });
    }
  });
}

// Waits (a few seconds at most) until no order or control request has handlers still running: the
// engine removes a row's pending handler run once its handlers settled (decision orders-host-hooks).
async function handlersSettled(store: SqlStore): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const { rows } = await store.database.query<{ n: number | string }>(
      "SELECT count(*) AS n FROM pending_handlers",
    );
    if (Number(rows[0]?.n ?? 0) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// What the tests of a skipped store are declared with: never read, since none of them runs.
const unavailableHarness: PluginHarness = {
  transport: "none",
  get api(): IncassoApi {
    throw new Error("describePlugin: this store is skipped.");
  },
  get store(): SqlStore {
    throw new Error("describePlugin: this store is skipped.");
  },
  get keys(): FixtureKeys {
    throw new Error("describePlugin: this store is skipped.");
  },
  request: () => Promise.reject(new Error("describePlugin: this store is skipped.")),
  bearer: () => ({ authorization: "" }),
};
