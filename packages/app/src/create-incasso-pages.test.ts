import { rmSync } from "node:fs";
import { newDataDir } from "@incasso/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { createIncasso } from "./create-incasso.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const quiet = { info() {}, warn() {}, error() {} };
// A copy of a fresh cluster (newDataDir): initdb is most of a new directory's cost.
const start = async (pages?: false) => {
  const dir = await newDataDir("incasso-app-pages-");
  dirs.push(dir);
  return createIncasso(
    { dataDir: dir },
    {
      startLines: false,
      logger: quiet,
      env: {},
      webhooks: false,
      letters: false,
      operatorEndpoint: false,
      ...(pages === false ? { pages } : {}),
    },
  );
};

describe("createIncasso and the web pages", () => {
  it("serves the API reference with the whole document and the tool pages at the root", async () => {
    const incasso = await start();
    try {
      const reference = await incasso.api.fetch(new Request("http://x/api/v1/docs"));
      expect(reference.status).toBe(200);
      // The reference documents the protected endpoints too: it is the app's own document.
      expect(await reference.text()).toContain('"operationId":"createOrder"');
      const wik = await incasso.api.fetch(new Request("http://x/tools/wik"));
      expect(wik.status).toBe(200);
      expect(wik.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(Object.keys(incasso.api.openapi().paths)).not.toContain("/docs");
    } finally {
      await incasso.stop();
    }
  });

  it("serves none with pages: false", async () => {
    const incasso = await start(false);
    try {
      expect((await incasso.api.fetch(new Request("http://x/api/v1/docs"))).status).toBe(404);
      expect((await incasso.api.fetch(new Request("http://x/tools/wik"))).status).toBe(404);
    } finally {
      await incasso.stop();
    }
  });
});
