import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DOCUMENT_WARNING_CODES, type DocumentCheckInput } from "./document-check-types.js";
import { strictSchemaViolations } from "./internal/strict-json-schema.js";
import { type FakeOpenAI, startFakeOpenAI } from "./internal/testing/fake-openai.js";
import { createOpenAIDocumentChecker } from "./openai-document-checker.js";
import { runDocumentCheck } from "./run-document-check.js";

let fake: FakeOpenAI;
let logged: Array<[string, Record<string, unknown> | undefined]>;
const logger = {
  warn: (message: string, details?: Record<string, unknown>) => logged.push([message, details]),
};

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.answers.length = 0;
  logged = [];
});

const pdf = new TextEncoder().encode("%PDF-1.7\n%%EOF\n");
const input: DocumentCheckInput = {
  debtors: [
    {
      type: "business",
      company_name: "Voorbeeld B.V.",
      address: { street: "Teststraat", house_number: "10", postal_code: "9999 ZZ", city: "Testdorp" },
    },
  ],
  invoices: [{ invoice_number: "F-1", amount_cents: 12100 }],
  attachments: [
    {
      index: 0,
      filename: "factuur.pdf",
      document_type: "invoice",
      text: "Totaal € 125,00",
      page_count: 1,
      bytes: pdf,
    },
  ],
};

function checker(options: { timeoutMs?: number; maxRetries?: number } = {}) {
  return createOpenAIDocumentChecker({
    apiKey: "sk-test",
    baseURL: fake.baseURL,
    model: "test-model",
    maxRetries: options.maxRetries ?? 0,
    timeoutMs: options.timeoutMs ?? 5_000,
  });
}

describe("OpenAI document checker", () => {
  it("sends the PDF as input_file with a strict JSON schema and returns the validated warnings", async () => {
    const warning = {
      code: "ai_invoice_mismatch",
      message: "Het totaal in factuur.pdf (€ 125,00) wijkt af van € 121,00.",
      invoice_number: "F-1",
    };
    fake.answers.push({ kind: "json", text: JSON.stringify({ warnings: [warning] }) });
    const warnings = await runDocumentCheck(checker(), input, { logger });
    expect(warnings).toEqual([warning]);
    expect(logged).toEqual([]);

    const [request] = fake.requests;
    expect(request?.path).toBe("/v1/responses");
    expect(request?.headers.authorization).toBe("Bearer sk-test");
    const body = request?.body as {
      model: string;
      store: boolean;
      input: Array<{ role: string; content: Array<Record<string, unknown>> }>;
      text: { format: { type: string; name: string; strict: boolean; schema: Record<string, unknown> } };
    };
    expect(body.model).toBe("test-model");
    expect(body.store).toBe(false);
    const content = body.input[0]?.content ?? [];
    expect(content[0]).toEqual({
      type: "input_file",
      filename: "factuur.pdf",
      file_data: `data:application/pdf;base64,${Buffer.from(pdf).toString("base64")}`,
    });
    expect(content[1]?.type).toBe("input_text");
    expect(String(content[1]?.text)).toContain('"invoice_number":"F-1","amount_cents":12100');
    expect(body.text.format).toMatchObject({ type: "json_schema", name: "document_check", strict: true });
    // Only what strict structured outputs accept: every property required, no extra properties,
    // null through anyOf, no minLength or maxLength (those are checked by zod afterwards).
    expect(body.text.format.schema).toEqual({
      type: "object",
      properties: {
        warnings: {
          type: "array",
          items: {
            type: "object",
            properties: {
              code: { type: "string", enum: [...DOCUMENT_WARNING_CODES] },
              message: { type: "string" },
              invoice_number: { anyOf: [{ type: "string" }, { type: "null" }] },
            },
            required: ["code", "message", "invoice_number"],
            additionalProperties: false,
          },
        },
      },
      required: ["warnings"],
      additionalProperties: false,
    });
    expect(strictSchemaViolations(body.text.format.schema)).toEqual([]);
  });

  it("drops an invoice_number that was not declared", async () => {
    fake.answers.push({
      kind: "json",
      text: JSON.stringify({
        warnings: [{ code: "ai_document_mismatch", message: "Verschil.", invoice_number: "X-9" }],
      }),
    });
    expect(await runDocumentCheck(checker(), input, { logger })).toEqual([
      { code: "ai_document_mismatch", message: "Verschil.", invoice_number: null },
    ]);
  });

  it("yields no warnings and logs when the model refuses", async () => {
    fake.answers.push({ kind: "refusal", refusal: "I can't help with that." });
    expect(await runDocumentCheck(checker(), input, { logger })).toEqual([]);
    expect(logged).toEqual([
      [
        "document check failed; no warnings from it",
        { checker: "openai", error: "the model refused: I can't help with that." },
      ],
    ]);
  });

  it("yields no warnings and logs when the output is malformed", async () => {
    fake.answers.push({ kind: "json", text: '{"warnings": [{"code": "made_up", "message": "x"}]}' });
    fake.answers.push({ kind: "json", text: "not json" });
    fake.answers.push({ kind: "incomplete" });
    expect(await runDocumentCheck(checker(), input, { logger })).toEqual([]);
    expect(await runDocumentCheck(checker(), input, { logger })).toEqual([]);
    expect(await runDocumentCheck(checker(), input, { logger })).toEqual([]);
    expect(logged.map(([, d]) => String(d?.error))).toEqual([
      expect.stringMatching(/^the answer does not match the schema: warnings\.0\.code: /),
      "the answer is not JSON",
      "the answer is incomplete (max_output_tokens)",
    ]);
  });

  it("yields no warnings and logs on 429, after the configured retries", async () => {
    const limited = {
      kind: "status" as const,
      status: 429,
      body: { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } },
      headers: { "retry-after-ms": "1" },
    };
    fake.answers.push(limited, limited);
    expect(await runDocumentCheck(checker({ maxRetries: 1 }), input, { logger })).toEqual([]);
    expect(fake.requests).toHaveLength(2);
    expect(logged).toHaveLength(1);
    expect(logged[0]?.[0]).toBe("document check failed; no warnings from it");
    expect(String(logged[0]?.[1]?.error)).toMatch(/^429 /);
  });

  it("succeeds when a retry after 429 is answered", async () => {
    fake.answers.push(
      {
        kind: "status",
        status: 429,
        body: { error: { message: "slow down" } },
        headers: { "retry-after-ms": "1" },
      },
      { kind: "json", text: '{"warnings":[]}' },
    );
    expect(await runDocumentCheck(checker({ maxRetries: 1 }), input, { logger })).toEqual([]);
    expect(fake.requests).toHaveLength(2);
    expect(logged).toEqual([]);
  });

  it("yields no warnings and logs when the HTTP call times out", async () => {
    fake.answers.push({ kind: "hang" });
    expect(await runDocumentCheck(checker({ timeoutMs: 200 }), input, { logger })).toEqual([]);
    expect(logged).toEqual([
      ["document check failed; no warnings from it", { checker: "openai", error: "Request timed out." }],
    ]);
  });

  it("yields no warnings and logs when the overall budget runs out first", async () => {
    fake.answers.push({ kind: "hang" });
    expect(await runDocumentCheck(checker({ timeoutMs: 10_000 }), input, { logger, timeoutMs: 150 })).toEqual(
      [],
    );
    expect(logged).toEqual([
      ["document check timed out; no warnings from it", { checker: "openai", timeoutMs: 150 }],
    ]);
  });

  it("sends only text for files beyond maxFileBytes", async () => {
    fake.answers.push({ kind: "json", text: '{"warnings":[]}' });
    const small = createOpenAIDocumentChecker({
      apiKey: "sk-test",
      baseURL: fake.baseURL,
      maxRetries: 0,
      maxFileBytes: 4,
    });
    await runDocumentCheck(small, input, { logger });
    const body = fake.requests[0]?.body as {
      input: Array<{ content: Array<{ type: string; text?: string }> }>;
    };
    expect(body.input[0]?.content.map((c) => c.type)).toEqual(["input_text"]);
    expect(body.input[0]?.content[0]?.text).toContain(
      '"sent_as_file":false,"extracted_text":"Totaal € 125,00"',
    );
    // The facts the offline reader found go along, so both checkers start from the same reading.
    expect(body.input[0]?.content[0]?.text).toContain(
      '"read_facts":{"source":"text","total_cents":12500,"amount_due_cents":null,"paid_cents":null,"currency":"EUR","invoice_number_xml":null,"invoice_numbers":[],"seller_vat_numbers":[],"buyer_name":null,"buyer_postcode":null,"postcodes":[],"ocr_pages":[]}',
    );
  });
});
