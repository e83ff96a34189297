import { type HostPlugin, pluginMigrations } from "@incasso/app";
import { createBuiltInCaseSystem, openCaseSystemStore } from "@incasso/case-system";
import type { OrderHooks } from "@incasso/core";
import { getPdfEngine } from "@incasso/pdf-guard/node";
import { type CreateApiOptions, consoleLogger, createApi, type IncassoApi } from "@incasso/server";
import { mergeMigrations, type SqlStore, STORE_MIGRATIONS } from "@incasso/store-sql";
import { afterAll, beforeAll, describe } from "vitest";
import { type FixtureKeys, fixtureKeys } from "./store-fixture.js";
import { transports as everyTransport, type RunningTransport, type Transport } from "./transports.js";

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
  /** The transports to run on; default every one ({@link everyTransport}). */
  transports?: readonly Transport[];
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
  /** The store, migrated with the plugins' tables (PGlite in memory, one per file). */
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
 * Express, Fastify, Azure Functions, the own-case-system host) and declares `tests` once per
 * transport, so a plugin author proves in a few lines that routes, authentication and order hooks
 * behave the same wherever the API is mounted. The plugins' migrations are applied to one
 * in-memory store per call, their `start` runs before the first transport and their `close`
 * after the last; each transport gets keys of its own organisations.
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
  let store: SqlStore | undefined;
  let started: HostPlugin[] = [];
  describe(name, () => {
    beforeAll(async () => {
      store = await openCaseSystemStore({
        migrations: mergeMigrations(STORE_MIGRATIONS, pluginMigrations(plugins)),
      });
      for (const plugin of plugins) {
        await plugin.start?.({ store, logger: subject.api?.logger ?? consoleLogger });
        started.push(plugin);
      }
      // A PGlite store takes seconds to open, more on a loaded machine.
    }, 180_000);
    afterAll(async () => {
      for (const plugin of [...started].reverse()) await plugin.close?.();
      started = [];
      await store?.close();
    });
    for (const transport of subject.transports ?? everyTransport) {
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
