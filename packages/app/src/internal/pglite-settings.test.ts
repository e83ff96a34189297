import { rmSync } from "node:fs";
import { newDataDir } from "@incasso/test-utils";
import { describe, expect, it } from "vitest";
import { createIncasso } from "../create-incasso.js";
import { pgliteOption } from "./pglite-settings.js";

describe("INCASSO_PGLITE_SHARED_BUFFERS", () => {
  it("is PGlite's buffer cache in MiB; unset or empty leaves the store's default", () => {
    expect(pgliteOption(undefined)).toEqual({});
    expect(pgliteOption(" ")).toEqual({});
    expect(pgliteOption("64")).toEqual({ pgliteSharedBuffersMb: 64 });
    expect(pgliteOption(" 1024 ")).toEqual({ pgliteSharedBuffersMb: 1024 });
  });

  it("refuses anything but a whole number of MiB from 1 to 1024, naming the variable", () => {
    for (const value of ["0", "1025", "16MB", "1.5", "-4", "0x10"]) {
      expect(() => pgliteOption(value)).toThrow(
        new RangeError(
          `INCASSO_PGLITE_SHARED_BUFFERS must be a whole number of MiB from 1 to 1024, got "${value}"`,
        ),
      );
    }
  });

  it("sets the buffer cache of the store createIncasso opens", async () => {
    const dir = await newDataDir("incasso-pglite-env-");
    const quiet = { info() {}, warn() {}, error() {} };
    try {
      const incasso = await createIncasso(
        { dataDir: dir },
        {
          startLines: false,
          logger: quiet,
          env: { INCASSO_PGLITE_SHARED_BUFFERS: "24" },
          webhooks: false,
          letters: false,
        },
      );
      try {
        const { rows } = await incasso.store.database.query("SHOW shared_buffers");
        expect(rows).toEqual([{ shared_buffers: "24MB" }]);
      } finally {
        await incasso.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
