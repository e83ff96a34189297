import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { issueApiKey } from "@incasso/core";
import { afterAll, describe, expect, it } from "vitest";
import { isDataDirLockedError } from "./data-dir-lock.js";
import { mergeMigrations, migrate, STORE_MIGRATIONS } from "./migrations.js";
import { openStore } from "./open-store.js";

const dir = mkdtempSync(join(tmpdir(), "incasso-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("openStore on a data directory", () => {
  it("migrates once, refuses a second opener, and keeps data across a restart", {
    timeout: 60_000,
  }, async () => {
    const store = await openStore({ dataDir: dir, lockCommand: "serve" });
    expect(store.engine).toBe("pglite");
    expect(store.dataDir).toBe(dir);
    expect(await store.migrate()).toEqual([]);
    const { rows } = await store.database.query<{ version: number }>(
      "SELECT version FROM incasso_migrations ORDER BY version",
    );
    expect(rows.map((r) => r.version)).toEqual(STORE_MIGRATIONS.map((m) => m.version));
    const { record } = await issueApiKey(store, { organisation: "Persisted", mode: "test" });

    const second = await openStore({ dataDir: dir }).then(
      () => "opened",
      (error: unknown) => (isDataDirLockedError(error) ? error.message : String(error)),
    );
    expect(second).toContain(`is in use by process ${process.pid} (incasso serve`);
    // The refused opener left the first one working.
    expect(await store.apiKeys.count()).toBe(1);
    await store.close();

    const again = await openStore({ dataDir: dir });
    expect(await again.apiKeys.findById(record.id)).toEqual(record);
    await again.close();
  });

  it("refuses a database newer than this release", { timeout: 60_000 }, async () => {
    const store = await openStore();
    // A later step in the webhooks' range (20–29): a newer release of a package this process runs.
    await store.database.query("INSERT INTO incasso_migrations (version, name) VALUES (25, 'future')");
    await expect(migrate(store.database)).rejects.toThrow(
      "schema version 25, newer than this release knows (21)",
    );
    await store.close();
  });

  it("leaves alone the steps of a package range none of the given steps is in", {
    timeout: 60_000,
  }, async () => {
    const store = await openStore();
    // The console's range (50–59), applied by a server that mounts it; a host without the console
    // opens the same database.
    await store.database.query("INSERT INTO incasso_migrations (version, name) VALUES (50, 'console')");
    expect(await migrate(store.database)).toEqual([]);
    const { rows } = await store.database.query<{ version: number }>(
      "SELECT version FROM incasso_migrations ORDER BY version",
    );
    expect(rows.map((r) => Number(r.version))).toEqual([1, 2, 3, 10, 12, 13, 14, 15, 20, 21, 50]);
    await store.close();
  });

  it("refuses a database with a step of a package whose migrations were not passed", {
    timeout: 60_000,
  }, async () => {
    const extra = {
      version: 11,
      name: "a package's table",
      statements: ["CREATE TABLE extra_rows (id text)"],
    };
    const store = await openStore({ migrations: mergeMigrations(STORE_MIGRATIONS, [extra]) });
    await expect(migrate(store.database)).rejects.toThrow(
      "schema versions 11 that these migrations do not include",
    );
    expect(await migrate(store.database, mergeMigrations(STORE_MIGRATIONS, [extra]))).toEqual([]);
    await store.close();
  });
});

describe("mergeMigrations", () => {
  it("merges lists in version order, keeps a step given twice once, and refuses two steps for one version", () => {
    const a = { version: 11, name: "a", statements: ["SELECT 1"] };
    const merged = mergeMigrations([a], STORE_MIGRATIONS, [a]);
    expect(merged.map((m) => m.version)).toEqual([1, 2, 3, 10, 11, 12, 13, 14, 15, 20, 21]);
    expect(() => mergeMigrations(STORE_MIGRATIONS, [{ version: 10, name: "other", statements: [] }])).toThrow(
      "Two migrations claim version 10",
    );
  });
});

describe("pendingMigrations", () => {
  it("lists every version of an unmigrated database, the missing ones of a partial one, none after migrate", async () => {
    const store = await openStore({ migrate: false });
    try {
      const all = STORE_MIGRATIONS.map((m) => m.version).sort((a, b) => a - b);
      expect(await store.pendingMigrations()).toEqual(all);
      // A database migrated by an older release lacks the newer steps.
      await migrate(store.database, STORE_MIGRATIONS.slice(0, 2));
      expect(await store.pendingMigrations()).toEqual(all.slice(2));
      await store.migrate();
      expect(await store.pendingMigrations()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
