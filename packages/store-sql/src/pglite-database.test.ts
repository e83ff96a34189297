import { describe, expect, it } from "vitest";
import { loadPglite } from "./pglite-database.js";

describe("loadPglite", () => {
  it("says what to install, or to use PostgreSQL, when the optional PGlite package is missing", async () => {
    const missing = Object.assign(new Error("Cannot find package '@electric-sql/pglite'"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    const error = await loadPglite(() => Promise.reject(missing)).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "PgliteMissingError", code: "pglite_not_installed", cause: missing });
    expect((error as Error).message).toBe(
      "Embedded PostgreSQL needs the package @electric-sql/pglite, which is not installed. Install it " +
        "(npm install @electric-sql/pglite), or give a PostgreSQL URL (DATABASE_URL) instead of a data directory.",
    );
  });

  it("passes any other failure on as it is", async () => {
    const other = new Error("wasm failed");
    await expect(loadPglite(() => Promise.reject(other))).rejects.toBe(other);
  });

  it("loads the installed package", async () => {
    const module = await loadPglite();
    expect(typeof module.PGlite.create).toBe("function");
  });
});
