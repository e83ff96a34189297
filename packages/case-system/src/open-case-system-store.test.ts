import { mergeMigrations, migrate, openStore, STORE_MIGRATIONS } from "@incasso/store-sql";
import { describe, expect, it } from "vitest";
import { CASE_SYSTEM_MIGRATIONS } from "./migrations.js";
import { openCaseSystemStore } from "./open-case-system-store.js";

// The case tables are this package's steps, applied with the store's (decision
// case-system-owns-its-migrations).
describe("openCaseSystemStore and CASE_SYSTEM_MIGRATIONS", () => {
  it("keep the version numbers the steps had in @incasso/store-sql", () => {
    expect(CASE_SYSTEM_MIGRATIONS.map((m) => [m.version, m.name])).toEqual([
      [11, "built-in case system"],
      [30, "case handling: rejected tasks, letters, handler lists"],
      [31, "case handling: letter jobs"],
      [32, "case handling: letter details per organisation"],
      [33, "case handling: attachments in parts"],
      [34, "case handling: the claims a letter covers"],
    ]);
    expect(STORE_MIGRATIONS.map((m) => m.version)).toEqual([1, 2, 3, 10, 12, 13, 14, 15, 20, 21]);
  });

  it("applies the store's and the case tables' steps in version order; the store alone is refused afterwards", {
    timeout: 60_000,
  }, async () => {
    const store = await openCaseSystemStore();
    const { rows } = await store.database.query<{ version: number }>(
      "SELECT version FROM incasso_migrations ORDER BY applied_at, version",
    );
    expect(rows.map((r) => r.version)).toEqual([1, 2, 3, 10, 11, 12, 13, 14, 15, 20, 21, 30, 31, 32, 33, 34]);
    const { rows: tables } = await store.database.query<{ n: string | number }>(
      "SELECT count(*) AS n FROM information_schema.tables WHERE table_name IN ('cases', 'case_letters', 'case_letter_jobs')",
    );
    expect(Number(tables[0]?.n)).toBe(3);
    // The store's own steps alone do not know 11, which lies in the range of the store's orders
    // (10–19): refused before anything is applied, naming the step and the remedy. (30 to 34 lie
    // in a range the store's steps do not touch; decision case-system-owns-its-migrations.)
    await expect(migrate(store.database)).rejects.toThrow(
      "The database has schema versions 11 that these migrations do not include; pass every package's migrations",
    );
    await store.close();
  });

  it("adds the case tables to a database that has only the store's", { timeout: 60_000 }, async () => {
    const store = await openStore();
    await expect(store.database.query("SELECT 1 FROM cases LIMIT 1")).rejects.toThrow();
    expect(await migrate(store.database, mergeMigrations(STORE_MIGRATIONS, CASE_SYSTEM_MIGRATIONS))).toEqual([
      11, 30, 31, 32, 33, 34,
    ]);
    await store.close();
  });
});
