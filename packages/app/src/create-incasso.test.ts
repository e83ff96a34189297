import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { CaseSystem } from "@incasso/core";
import { newDataDir } from "@incasso/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { makeActivePdf } from "../../pdf-guard/src/internal/testing/fixtures.js";
import { createIncasso } from "./create-incasso.js";
import { resolveTarget } from "./incasso-target.js";
import { OPERATOR_FILE } from "./operations/operator-endpoint.js";

const dirs: string[] = [];
// Each a copy of a fresh cluster (newDataDir): PostgreSQL's initdb is most of a new directory's
// cost, and nothing here is about initdb.
const tempDir = async () => {
  const dir = await newDataDir("incasso-app-");
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const quiet = { info() {}, warn() {}, error() {} };

describe("createIncasso", () => {
  it("composes the whole service on a data directory and stops it, releasing the directory", async () => {
    const dir = await tempDir();
    const incasso = await createIncasso({ dataDir: dir }, { startLines: false, logger: quiet, env: {} });
    try {
      expect(incasso.store.engine).toBe("pglite");
      expect(incasso.dispatcher).toBeDefined();
      expect(incasso.letters).toBeDefined();
      expect(incasso.allowPrivateWebhookTargets).toBe(false);
      expect(incasso.refuseActivePdf).toBe(false);
      // The operator endpoint is what lets the CLI work while the host runs.
      expect(incasso.operator?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(existsSync(join(dir, OPERATOR_FILE))).toBe(true);
      // The protected endpoints are there: a request without a key is refused, not unknown.
      const orders = await incasso.api.fetch(new Request("http://x/api/v1/orders"));
      expect(orders.status).toBe(401);
      expect(Object.keys(incasso.api.openapi().paths)).toContain("/orders");
      const key = await incasso.operations.createKey({ organisation: "Embed BV", mode: "test" });
      const ping = await incasso.api.fetch(
        new Request("http://x/api/v1/ping", { headers: { authorization: `Bearer ${key.key}` } }),
      );
      expect(await ping.json()).toMatchObject({ status: "ok", authenticated: true });
    } finally {
      await Promise.all([incasso.stop(), incasso.stop()]);
    }
    expect(existsSync(join(dir, OPERATOR_FILE))).toBe(false);
    // The lock is released: the directory opens again, with what was stored.
    const again = await createIncasso(
      { dataDir: dir },
      { startLines: false, logger: quiet, env: {}, webhooks: false, letters: false },
    );
    try {
      expect(again.dispatcher).toBeUndefined();
      expect(again.letters).toBeUndefined();
      expect((await again.operations.listKeys()).map((k) => k.organisation)).toEqual(["Embed BV"]);
    } finally {
      await again.stop();
    }
  });

  it("uses a host's own case system, without the built-in letter runner unless asked, and reads the environment", async () => {
    // Never called here: the test is about what is composed around a host's case system.
    const own = { host: "own case system" } as unknown as CaseSystem;
    const incasso = await createIncasso(undefined, {
      caseSystem: own,
      operatorEndpoint: false,
      startLines: false,
      logger: quiet,
      env: {
        INCASSO_DATA_DIR: await tempDir(),
        INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS: "1",
        INCASSO_REFUSE_ACTIVE_PDF: "1",
      },
    });
    try {
      expect(incasso.caseSystem).toBe(own);
      expect(incasso.letters).toBeUndefined();
      expect(incasso.operator).toBeUndefined();
      expect(incasso.allowPrivateWebhookTargets).toBe(true);
      expect(incasso.refuseActivePdf).toBe(true);
    } finally {
      await incasso.stop();
    }
  });
});

describe("createIncasso({ refuseActivePdf })", () => {
  it("hands the setting to the order engine: a PDF with active content is 422 invalid_attachment", async () => {
    const incasso = await createIncasso(
      { dataDir: await tempDir() },
      {
        startLines: false,
        logger: quiet,
        env: {},
        webhooks: false,
        letters: false,
        operatorEndpoint: false,
        refuseActivePdf: true,
      },
    );
    try {
      expect(incasso.refuseActivePdf).toBe(true);
      const key = await incasso.operations.createKey({ organisation: "Strikt BV", mode: "test" });
      const res = await incasso.api.fetch(
        new Request("http://x/api/v1/orders", {
          method: "POST",
          headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
          body: JSON.stringify({
            type: "pre-incasso",
            debtors: [
              {
                type: "business",
                company_name: "Voorbeeld B.V.",
                address: { street: "Teststraat", house_number: "1", postal_code: "9999ZZ", city: "Testdorp" },
              },
            ],
            invoices: [
              {
                invoice_number: "F-1",
                invoice_date: "2026-09-01",
                payment_term_days: 14,
                amount_cents: 1000,
              },
            ],
            attachments: [
              {
                filename: "polyglot.pdf",
                content_base64: Buffer.from(await makeActivePdf("html-prefix")).toString("base64"),
              },
            ],
          }),
        }),
      );
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({
        code: "invalid_attachment",
        errors: [{ field: "attachments[0].content_base64", code: "pdf_active_content" }],
      });
    } finally {
      await incasso.stop();
    }
  });
});

describe("resolveTarget", () => {
  it("takes the target given, then DATABASE_URL, then INCASSO_DATA_DIR, then ./.data", () => {
    expect(resolveTarget({ databaseUrl: "postgres://db/x" }, { DATABASE_URL: "postgres://other" })).toEqual({
      databaseUrl: "postgres://db/x",
    });
    expect(resolveTarget({ dataDir: "/srv/data" }, { DATABASE_URL: "postgres://other" })).toEqual({
      dataDir: "/srv/data",
    });
    expect(resolveTarget(undefined, { DATABASE_URL: "postgres://db/y", INCASSO_DATA_DIR: "/d" })).toEqual({
      databaseUrl: "postgres://db/y",
    });
    expect(resolveTarget(undefined, { INCASSO_DATA_DIR: "/srv/incasso" })).toEqual({
      dataDir: "/srv/incasso",
    });
    expect(resolveTarget(undefined, {})).toEqual({ dataDir: join(process.cwd(), ".data") });
  });

  it("refuses a target that names neither a data directory nor a database, naming what it got", () => {
    expect(() => resolveTarget({ caseSystem: {} } as never, {})).toThrow(
      new TypeError(
        "The storage target must be { dataDir: string } or { databaseUrl: string }; got an object with caseSystem. Options such as caseSystem go second: createIncasso(undefined, { caseSystem }).",
      ),
    );
    expect(() => resolveTarget({ dataDir: "" }, {})).toThrow(TypeError);
  });
});
