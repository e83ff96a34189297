import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { issueApiKey } from "@incasso/core";
import { afterAll, describe, expect, it } from "vitest";
import { isDataDirLockedError } from "./data-dir-lock.js";
import { MIGRATIONS, migrate } from "./migrations.js";
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
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
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
    await store.database.query("INSERT INTO incasso_migrations (version, name) VALUES (999, 'future')");
    await expect(migrate(store.database)).rejects.toThrow(
      "schema version 999, newer than this release knows",
    );
    await store.close();
  });
});

describe("pendingMigrations", () => {
  it("lists every version of an unmigrated database, the missing ones of a partial one, none after migrate", async () => {
    const store = await openStore({ migrate: false });
    try {
      const all = MIGRATIONS.map((m) => m.version).sort((a, b) => a - b);
      expect(await store.pendingMigrations()).toEqual(all);
      // A database migrated by an older release lacks the newer steps.
      await migrate(store.database, MIGRATIONS.slice(0, 2));
      expect(await store.pendingMigrations()).toEqual(all.slice(2));
      await store.migrate();
      expect(await store.pendingMigrations()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
