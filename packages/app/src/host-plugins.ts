import type { OrderHooks } from "@incasso/core";
import type { ApiPlugin, Logger, PluginFactory } from "@incasso/server";
import type { Migration, SqlStore } from "@incasso/store-sql";

/**
 * The first schema version a host plugin may use: the project's own packages keep the versions
 * below it (store 1–9, orders 10–19, webhooks 20–29, case system 30–39, console 50–59, and
 * those to come), so an upgrade of incasso never meets a plugin's number (decision
 * app-host-plugin-lifecycle).
 *
 * @example
 * const migrations = [{ version: PLUGIN_MIGRATIONS_FROM, name: "stop list", statements: ["CREATE TABLE …"] }];
 */
export const PLUGIN_MIGRATIONS_FROM = 1000;

/**
 * What a plugin's `start` gets: the opened store (migrations applied) and the service's logger.
 *
 * @example
 * const start = async ({ store }: HostPluginContext) => { await store.database.query("SELECT 1"); };
 */
export interface HostPluginContext {
  store: SqlStore;
  logger: Logger;
}

/**
 * A host's plugin to `createIncasso` (docs/plugins.md): tables of its own (`migrations`, versions
 * {@link PLUGIN_MIGRATIONS_FROM} and up, each range of ten of one plugin), routes (`api`), order
 * hooks, and a lifecycle. `start` runs after the store is migrated and the service composed, in
 * the order the plugins are given; `close` runs in the reverse order at `stop()`, after the
 * workers stopped and before the store closes.
 *
 * @example
 * const stopList: HostPlugin = {
 *   name: "stop-list",
 *   migrations: [{ version: 1000, name: "stop list", statements: ["CREATE TABLE stop_list (customer_number text PRIMARY KEY)"] }],
 *   orderHooks: { codes: { debtor_on_stop_list: "The agency does not collect from this debtor." } },
 *   start: async ({ logger }) => logger.info("stop list ready"),
 * };
 */
export interface HostPlugin {
  name: string;
  migrations?: readonly Migration[];
  /** Routes of the plugin, with the API's store, rate limiter, logger and clock when a factory. */
  api?: ApiPlugin | PluginFactory;
  orderHooks?: OrderHooks;
  start?(context: HostPluginContext): void | Promise<void>;
  close?(): void | Promise<void>;
}

/**
 * The schema steps of the plugins, checked: versions from {@link PLUGIN_MIGRATIONS_FROM}, and no
 * range of ten shared by two plugins (the migration runner judges "newer than the code" per
 * range, so a range must belong to one plugin).
 *
 * @throws {TypeError} code `invalid_plugin` for a version below 1000, a shared range, or a plugin
 *   without a name.
 * @example
 * const steps = pluginMigrations([stopList]); // [{ version: 1000, ... }]
 */
export function pluginMigrations(plugins: readonly HostPlugin[]): Migration[] {
  const owner = new Map<number, string>();
  const steps: Migration[] = [];
  const invalid = (message: string) => Object.assign(new TypeError(message), { code: "invalid_plugin" });
  for (const plugin of plugins) {
    if (typeof plugin.name !== "string" || plugin.name === "")
      throw invalid("createIncasso: every plugin needs a name.");
    for (const m of plugin.migrations ?? []) {
      if (!Number.isSafeInteger(m.version) || m.version < PLUGIN_MIGRATIONS_FROM) {
        throw invalid(
          `createIncasso: plugin "${plugin.name}" has migration version ${m.version}; plugins use ${PLUGIN_MIGRATIONS_FROM} and up.`,
        );
      }
      const range = Math.floor(m.version / 10);
      const other = owner.get(range);
      if (other !== undefined && other !== plugin.name) {
        throw invalid(
          `createIncasso: plugins "${other}" and "${plugin.name}" share migration versions ${range * 10}–${range * 10 + 9}; give each plugin a range of its own.`,
        );
      }
      owner.set(range, plugin.name);
      steps.push(m);
    }
  }
  return steps;
}

/**
 * Starts the plugins in order. When one fails, those already started are closed in reverse order
 * (their failures logged) and the failure is thrown, so `createIncasso` can stop the rest.
 *
 * @example
 * const started = await startPlugins(plugins, { store, logger });
 */
export async function startPlugins(
  plugins: readonly HostPlugin[],
  context: HostPluginContext,
): Promise<HostPlugin[]> {
  const started: HostPlugin[] = [];
  for (const plugin of plugins) {
    try {
      await plugin.start?.(context);
    } catch (error) {
      await closePlugins(started, context.logger);
      throw error;
    }
    started.push(plugin);
  }
  return started;
}

/**
 * Closes the plugins in reverse order; a failure is logged and the next one is closed anyway.
 *
 * @example
 * await closePlugins(started, logger);
 */
export async function closePlugins(started: readonly HostPlugin[], logger: Logger): Promise<void> {
  for (const plugin of [...started].reverse()) {
    try {
      await plugin.close?.();
    } catch (error) {
      logger.error(`plugin ${plugin.name} failed to close`, {
        plugin: plugin.name,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
