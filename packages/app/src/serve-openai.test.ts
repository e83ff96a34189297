import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { cliProcesses, newDataDir } from "@incasso/test-utils";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../../pdf-guard/src/internal/testing/fake-openai.js";
import { makeTextPdf } from "../../pdf-guard/src/internal/testing/fixtures.js";

// Issue 17, item 5: OPENAI_API_KEY switches the OpenAI document checker and title writer on in a
// real `incasso serve`, against a stand-in for the OpenAI API on 127.0.0.1 (the SDK takes a base
// URL); without the key the rules checker and the template writer run.
const cli = cliProcesses();
const dirs: string[] = [];
let fake: FakeOpenAI | undefined;
afterEach(() => cli.killAll("SIGTERM"));
afterAll(async () => {
  cli.killAll("SIGKILL");
  await fake?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const OPENAI_KEY = "sk-fake-0123456789abcdefghijklmn";

async function tempDir(): Promise<string> {
  const dir = await newDataDir("incasso-openai-");
  dirs.push(dir);
  return dir;
}

/** Starts a long-running command and resolves with its JSON lines once `until` is logged. */
function started(
  args: string[],
  env: Record<string, string>,
  until: (msg: string) => boolean,
): Promise<{ proc: ChildProcess; entries: Record<string, unknown>[] }> {
  const proc = cli.start(args, env);
  let out = "";
  return new Promise((resolve, reject) => {
    proc.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const entries = out
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      if (entries.some((e) => until(String(e.msg)))) resolve({ proc, entries });
    });
    proc.on("exit", (code) => reject(new Error(`exited with ${code}: ${out}`)));
  });
}

const today = new Date().toISOString().slice(0, 10);

describe("the document checker and title writer of incasso serve and worker", () => {
  it("with OPENAI_API_KEY, serve checks the PDFs and writes the title through OpenAI", {
    timeout: 120_000,
  }, async () => {
    fake = await startFakeOpenAI();
    const warning = {
      code: "ai_invoice_mismatch",
      message: "Het totaal in factuur.pdf (€ 1.250,00) wijkt af van € 1.000,00.",
      invoice_number: "AI-1-F1",
    };
    fake.answers.push(
      { kind: "json", text: JSON.stringify({ warnings: [warning] }) },
      {
        kind: "json",
        text: JSON.stringify({ title: "Overeenkomst van opdracht voor het leveren van koffie" }),
      },
    );
    const dir = await tempDir();
    const created = await cli.run([
      "keys",
      "create",
      "--organisation",
      "Acme BV",
      "--mode",
      "live",
      "--json",
      "--data-dir",
      dir,
    ]);
    const { key } = JSON.parse(created.out) as { key: string };
    const { entries } = await started(
      ["serve", "--port", "0", "--data-dir", dir, "--openai-timeout-ms", "5000"],
      {
        OPENAI_API_KEY: OPENAI_KEY,
        INCASSO_OPENAI_MODEL: "test-model",
        INCASSO_OPENAI_BASE_URL: fake.baseURL,
      },
      (msg) => msg.startsWith("data: "),
    );
    expect(entries.find((e) => String(e.msg).startsWith("documents: "))).toMatchObject({
      msg: "documents: OpenAI checker and OpenAI title writer (model test-model)",
      documentChecker: "openai",
      titleWriter: "openai",
      openaiModel: "test-model",
    });
    const url = String(entries[0]?.url);
    const pdf = await makeTextPdf({ pages: [["Factuur AI-1-F1", "Totaal te betalen: EUR 1.250,00"]] });
    const res = await fetch(`${url}/orders`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        "idempotency-key": "openai-1",
      },
      body: JSON.stringify({
        type: "pre-incasso",
        debtors: [
          {
            type: "individual",
            first_name: "Jan",
            last_name: "Jansen",
            address: { street: "Teststraat", house_number: "2", postal_code: "9999 ZZ", city: "Testdorp" },
          },
        ],
        invoices: [
          { invoice_number: "AI-1-F1", invoice_date: today, due_date: today, amount_cents: 100_000 },
        ],
        attachments: [
          {
            filename: "factuur.pdf",
            document_type: "invoice",
            content_base64: Buffer.from(pdf).toString("base64"),
          },
        ],
      }),
    });
    expect(res.status).toBe(201);
    const order = (await res.json()) as { case: { case_number: string }; warnings: unknown[] };
    expect(order.warnings).toContainEqual(warning);

    // What reached the OpenAI API: the Responses API, the key, the model, strict JSON schemas.
    expect(fake.requests.map((r) => r.path)).toEqual(["/v1/responses", "/v1/responses"]);
    const [check, title] = fake.requests;
    expect(check?.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(check?.body).toMatchObject({
      model: "test-model",
      store: false,
      text: { format: { type: "json_schema", name: "document_check", strict: true } },
    });
    expect(title?.body).toMatchObject({
      model: "test-model",
      text: { format: { type: "json_schema", name: "claim_title", strict: true } },
    });

    const shown = await cli.run(["cases", "show", order.case.case_number, "--json", "--data-dir", dir]);
    expect(JSON.parse(shown.out)).toMatchObject({
      title: "Overeenkomst van opdracht voor het leveren van koffie",
    });
  });

  it("without OPENAI_API_KEY, serve names the rules checker and the template writer", {
    timeout: 90_000,
  }, async () => {
    const { entries } = await started(
      ["serve", "--port", "0", "--data-dir", await tempDir()],
      { INCASSO_OPENAI_MODEL: "test-model" },
      (msg) => msg.startsWith("data: "),
    );
    expect(entries.find((e) => String(e.msg).startsWith("documents: "))).toMatchObject({
      msg: "documents: rules checker and template title writer (OPENAI_API_KEY turns on OpenAI)",
      documentChecker: "rules",
      titleWriter: "template",
    });
  });

  it("worker reads the same settings and says which checker and title writer they choose", {
    timeout: 90_000,
  }, async () => {
    const { entries } = await started(
      ["worker", "--data-dir", await tempDir()],
      { OPENAI_API_KEY: OPENAI_KEY, INCASSO_OPENAI_MODEL: "test-model" },
      (msg) => msg.startsWith("documents: "),
    );
    expect(entries.find((e) => String(e.msg).startsWith("documents: "))).toMatchObject({
      msg: "documents: OpenAI checker and OpenAI title writer (model test-model); checked and written by serve while it answers POST /orders",
      documentChecker: "openai",
      titleWriter: "openai",
    });
    expect(JSON.stringify(entries)).not.toContain(OPENAI_KEY);
  });

  it("refuses a time-out that is not a number, naming the variable's flag", async () => {
    const result = await cli.run(["serve", "--data-dir", "/nonexistent/incasso"], {
      OPENAI_API_KEY: OPENAI_KEY,
      INCASSO_OPENAI_TIMEOUT_MS: "soon",
    });
    expect(result).toMatchObject({
      code: 2,
      err: "incasso: --openai-timeout-ms must be a whole number of milliseconds, not soon\n",
    });
  });
});
