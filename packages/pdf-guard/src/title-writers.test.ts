import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { strictSchemaViolations } from "./internal/strict-json-schema.js";
import { type FakeOpenAI, startFakeOpenAI } from "./internal/testing/fake-openai.js";
import { createOpenAITitleWriter } from "./openai-title-writer.js";
import { clampTitle, composeTitle, createTemplateTitleWriter } from "./template-title-writer.js";
import { MAX_TITLE_LENGTH, type TitleInput } from "./title-writer-types.js";
import { writeTitle } from "./write-title.js";

const invoices = (...numbers: string[]) => numbers.map((n) => ({ invoice_number: n, amount_cents: 100 }));

describe("template titles", () => {
  it.each<[TitleInput, "nl" | "en", string]>([
    [
      { description: "Onderhoud cv-ketel. Extra werk.", debtors: [], invoices: [] },
      "nl",
      "Overeenkomst van opdracht voor onderhoud cv-ketel",
    ],
    [
      { description: "CV-ketel vervangen", debtors: [], invoices: [] },
      "nl",
      "Overeenkomst van opdracht voor CV-ketel vervangen",
    ],
    [
      { description: null, debtors: [], invoices: invoices("F-1") },
      "nl",
      "Overeenkomst van opdracht voor factuur F-1",
    ],
    [
      { description: "  ", debtors: [], invoices: invoices("F-1", "F-2") },
      "nl",
      "Overeenkomst van opdracht voor facturen F-1 en F-2",
    ],
    [
      { debtors: [], invoices: invoices("A", "B", "C", "D", "E") },
      "nl",
      "Overeenkomst van opdracht voor facturen A, B, C en 2 andere",
    ],
    [
      { debtors: [], invoices: invoices("A", "B", "C", "D") },
      "en",
      "Agreement of assignment for invoices A, B, C and 1 other",
    ],
    [
      { debtors: [], invoices: invoices("A", "B", "C") },
      "en",
      "Agreement of assignment for invoices A, B and C",
    ],
    [{ debtors: [], invoices: [] }, "nl", "Overeenkomst van opdracht voor openstaande facturen"],
  ])("writes %j in %s as %j", (input, language, expected) => {
    expect(composeTitle(input, language)).toBe(expected);
  });

  it("keeps titles within 200 characters, cut at a word", () => {
    const title = composeTitle({ description: "woord ".repeat(100), debtors: [], invoices: [] });
    expect(Array.from(title).length).toBeLessThanOrEqual(200);
    expect(title.endsWith(" woord…")).toBe(true);
    expect(clampTitle("x".repeat(300))).toBe(`${"x".repeat(199)}…`);
  });

  it("is the default writer behind writeTitle", async () => {
    const title = await writeTitle(createTemplateTitleWriter(), { debtors: [], invoices: invoices("F-9") });
    expect(title).toBe("Overeenkomst van opdracht voor factuur F-9");
  });
});

describe("OpenAI title writer", () => {
  let fake: FakeOpenAI;
  let logged: Array<[string, Record<string, unknown> | undefined]>;
  const logger = { warn: (m: string, d?: Record<string, unknown>) => logged.push([m, d]) };
  const input: TitleInput = { description: "Onderhoud cv-ketel", debtors: [], invoices: invoices("F-1") };
  const writer = (timeoutMs = 5_000) =>
    createOpenAITitleWriter({ apiKey: "sk-test", baseURL: fake.baseURL, maxRetries: 0, timeoutMs });

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

  it("returns the model's title when it has the required form", async () => {
    fake.answers.push({
      kind: "json",
      text: '{"title":"Overeenkomst van opdracht voor onderhoud van een cv-ketel"}',
    });
    expect(await writeTitle(writer(), input, { logger })).toBe(
      "Overeenkomst van opdracht voor onderhoud van een cv-ketel",
    );
    const body = fake.requests[0]?.body as {
      text: { format: { name: string; strict: boolean; schema: unknown } };
      instructions: string;
    };
    expect(body.text.format.name).toBe("claim_title");
    expect(body.text.format.strict).toBe(true);
    // Only what strict structured outputs accept: no minLength or maxLength.
    expect(body.text.format.schema).toEqual({
      type: "object",
      properties: { title: { type: "string" } },
      required: ["title"],
      additionalProperties: false,
    });
    expect(strictSchemaViolations(body.text.format.schema)).toEqual([]);
    expect(body.instructions).toContain('"Overeenkomst van opdracht voor ..."');
    expect(logged).toEqual([]);
  });

  it("shortens a model title over the limit at a word instead of discarding it", async () => {
    const long = `Overeenkomst van opdracht voor ${"onderhoud van een cv-ketel ".repeat(10)}`.trim();
    fake.answers.push({ kind: "json", text: JSON.stringify({ title: long }) });
    const title = await writeTitle(writer(), input, { logger });
    expect(title).toBe(clampTitle(long));
    expect(Array.from(title).length).toBeLessThanOrEqual(MAX_TITLE_LENGTH);
    expect(title.endsWith("cv-ketel…")).toBe(true);
    expect(title.startsWith("Overeenkomst van opdracht voor onderhoud")).toBe(true);
  });

  it.each([
    [
      { kind: "json" as const, text: '{"title":"Incasso cv-ketel"}' },
      'the title does not have the form "Overeenkomst van opdracht voor ..."',
    ],
    [{ kind: "refusal" as const, refusal: "No." }, "the model refused: No."],
    [
      { kind: "json" as const, text: '{"name":"x"}' },
      "the answer does not match the schema: title: Invalid input: expected string, received undefined",
    ],
    [
      { kind: "status" as const, status: 429, body: { error: { message: "Rate limit reached" } } },
      "429 Rate limit reached",
    ],
  ])("falls back to the template and logs when the answer is %j", async (answer, error) => {
    fake.answers.push(answer);
    expect(await writeTitle(writer(), input, { logger })).toBe(
      "Overeenkomst van opdracht voor onderhoud cv-ketel",
    );
    expect(logged).toEqual([["title writer failed; template title used", { writer: "openai", error }]]);
  });

  it("falls back to the template when the call times out", async () => {
    fake.answers.push({ kind: "hang" });
    expect(await writeTitle(writer(150), input, { logger })).toBe(
      "Overeenkomst van opdracht voor onderhoud cv-ketel",
    );
    expect(logged).toEqual([
      ["title writer failed; template title used", { writer: "openai", error: "Request timed out." }],
    ]);
  });
});
