import { randomBytes } from "node:crypto";
import { createBuiltInCaseSystem, openCaseSystemStore, saveLetterDetails } from "@incasso/case-system";
import { issueApiKey } from "@incasso/core";
import { createApi } from "@incasso/server";
import type { SqlStore } from "@incasso/store-sql";
import { cliProcesses } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../webhooks/receiver.js";

// A deployment whose API makes no letters (an embedding host, or `incasso serve
// --no-letter-runner`) and an `incasso worker` process that makes the 14-day letters of its
// pre-incasso orders (decision case-system-wik-letter-jobs). Runs when TEST_DATABASE_URL is set,
// in a throwaway database.
const url = process.env.TEST_DATABASE_URL;

describe.runIf(url)("the 14-day letters made by an incasso worker process on PostgreSQL", () => {
  const database = `incasso_letters_${randomBytes(5).toString("hex")}`;
  const cli = cliProcesses();
  let admin: SqlStore;
  let store: SqlStore;
  let databaseUrl: string;

  beforeAll(async () => {
    admin = await openCaseSystemStore({ databaseUrl: url, migrate: false });
    await admin.database.query(`CREATE DATABASE ${database}`);
    const u = new URL(url as string);
    u.pathname = `/${database}`;
    databaseUrl = u.toString();
    store = await openCaseSystemStore({ databaseUrl });
  });
  afterAll(async () => {
    cli.killAll("SIGKILL");
    await store?.close();
    await admin?.database.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin?.close();
  });

  it("the API records the job, the worker makes the letter with its event, and stops on SIGTERM", {
    timeout: 90_000,
  }, async () => {
    const api = createApi({
      store,
      caseSystem: createBuiltInCaseSystem({ store }),
    });
    const { key, record } = await issueApiKey(store, { organisation: "Worker Letters BV", mode: "live" });
    // Without an IBAN no 14-day letter is made (issue 19).
    await saveLetterDetails(
      store.database,
      record.organisationId,
      { iban: "NL91ABNA0417164300" },
      new Date(),
    );
    const created = await api.fetch(
      new Request("http://x/api/v1/orders", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({
          type: "pre-incasso",
          reference: "WL-1",
          debtors: [
            {
              type: "individual",
              first_name: "Jan",
              last_name: "Jansen",
              customer_number: "WL-K1",
              address: { street: "Teststraat", house_number: "2", postal_code: "9999 ZZ", city: "Testdorp" },
            },
          ],
          invoices: [
            {
              invoice_number: "WL-F1",
              invoice_date: "2026-10-01",
              due_date: "2026-10-15",
              amount_cents: 100_000,
            },
          ],
        }),
      }),
    );
    expect(created.status).toBe(201);
    const order = (await created.json()) as { id: string; case: { case_number: string } };
    const caseNumber = order.case.case_number;
    const cases = createBuiltInCaseSystem({ store });
    expect((await cases.getCase({ caseNumber }))?.letters).toEqual([]);
    expect(await cases.listLetterJobs({ caseNumber })).toMatchObject([
      { orderId: order.id, state: "pending" },
    ]);

    const worker = cli.start([
      "worker",
      "--database-url",
      databaseUrl,
      "--no-webhook-dispatcher",
      "--letter-concurrency",
      "2",
    ]);
    let out = "";
    worker.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    const letter = await waitFor(
      async () => (await cases.getCase({ caseNumber }))?.letters[0],
      "the letter",
      2400,
    );
    expect(letter).toMatchObject({
      orderId: order.id,
      kind: "wik_letter",
      principalCents: 100_000,
      collectionCostsCents: 15_000,
    });
    expect(await cases.listLetterJobs({ caseNumber })).toEqual([]);
    const { rows } = await store.database.query<{ type: string; payload: string }>(
      "SELECT type, payload FROM webhook_events WHERE organisation_id = (SELECT organisation_id FROM cases WHERE case_number = $1)",
      [caseNumber],
    );
    expect(rows.map((r) => [r.type, (JSON.parse(r.payload) as { data: unknown }).data])).toEqual([
      [
        "correspondence.sent",
        { order_id: order.id, case_number: caseNumber, reference: "WL-1", case_event: "case_letters" },
      ],
    ]);
    // Structured log lines (decision operations-logs): the start, then the letter made.
    const messages = out
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages[0]).toMatch(
      /^incasso worker ltr_[0-9a-f]{12} making 14-day letters from PostgreSQL \(DATABASE_URL\)$/,
    );
    // Then which document checker and title writer the settings choose (decision
    // cli-openai-settings); the environment of this test has no OPENAI_API_KEY.
    expect(messages[1]).toBe(
      "documents: rules checker and template title writer (OPENAI_API_KEY turns on OpenAI); checked and written by serve while it answers POST /orders",
    );
    // The letter's line follows its record, so it may not be written yet.
    expect(new Set(messages.slice(2))).toEqual(new Set(messages.length > 2 ? ["14-day letter made"] : []));
    const exited = new Promise<number | null>((resolve) => worker.once("exit", resolve));
    worker.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("refuses to start with nothing to do", { timeout: 30_000 }, async () => {
    const result = await cli.run([
      "worker",
      "--database-url",
      databaseUrl,
      "--no-webhook-dispatcher",
      "--no-letter-runner",
    ]);
    expect(result.code).toBe(2);
    expect(result.err).toBe(
      "incasso: --no-webhook-dispatcher and --no-letter-runner leave the worker nothing to do\n",
    );
  });
});
