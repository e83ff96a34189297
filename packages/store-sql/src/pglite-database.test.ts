import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkPgliteSharedBuffers,
  initPgliteDataDir,
  loadPglite,
  openPgliteDatabase,
} from "./pglite-database.js";

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

describe("openPgliteDatabase", () => {
  it("starts PGlite with a buffer cache of 16 MiB unless told otherwise", async () => {
    for (const [options, expected] of [
      [{}, "16MB"],
      [{ sharedBuffersMb: 48 }, "48MB"],
    ] as const) {
      const db = await openPgliteDatabase(options);
      try {
        const { rows } = await db.query<{ shared_buffers: string }>("SHOW shared_buffers");
        expect(rows).toEqual([{ shared_buffers: expected }]);
      } finally {
        await db.close();
      }
    }
  });

  it("refuses a buffer cache that is not a whole number of MiB from 1 to 1024, before opening anything", async () => {
    for (const mb of [0, -1, 1.5, 1025, Number.NaN]) {
      expect(() => checkPgliteSharedBuffers(mb)).toThrow(
        new RangeError(
          `PGlite shared buffers must be a whole number of MiB from 1 to 1024, got ${String(mb)}`,
        ),
      );
    }
    await expect(openPgliteDatabase({ sharedBuffersMb: 0 })).rejects.toThrow(RangeError);
    expect(checkPgliteSharedBuffers(1024)).toBe(1024);
  });

  it("makes a new data directory in a worker and then opens it; an existing one is left as it is", async () => {
    const parent = mkdtempSync(join(tmpdir(), "incasso-pglite-"));
    const dataDir = join(parent, "pglite");
    try {
      await initPgliteDataDir(dataDir);
      expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true);
      const made = statSync(join(dataDir, "PG_VERSION")).mtimeMs;
      await initPgliteDataDir(dataDir);
      expect(statSync(join(dataDir, "PG_VERSION")).mtimeMs).toBe(made);
      const db = await openPgliteDatabase({ dataDir });
      try {
        await db.query("CREATE TABLE t (n int)");
        await db.query("INSERT INTO t VALUES (7)");
      } finally {
        await db.close();
      }
      const again = await openPgliteDatabase({ dataDir });
      try {
        expect((await again.query<{ n: number }>("SELECT n FROM t")).rows).toEqual([{ n: 7 }]);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it("fails, rather than waits, when the new data directory cannot be made", async () => {
    const parent = mkdtempSync(join(tmpdir(), "incasso-pglite-"));
    try {
      const file = join(parent, "a-file");
      writeFileSync(file, "not a directory");
      await expect(initPgliteDataDir(join(file, "pglite"))).rejects.toMatchObject({
        code: "ENOTDIR",
        message: `ENOTDIR: not a directory, mkdir '${join(file, "pglite")}'`,
      });
      expect(existsSync(join(file, "pglite"))).toBe(false);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
