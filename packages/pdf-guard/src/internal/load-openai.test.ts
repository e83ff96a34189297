import { describe, expect, it } from "vitest";
import { isPdfGuardError } from "../errors.js";
import { createOpenAIDocumentChecker } from "../openai-document-checker.js";
import { loadOpenAI } from "./load-openai.js";

describe("loadOpenAI", () => {
  it("imports the SDK on demand", async () => {
    const OpenAI = await loadOpenAI();
    expect(OpenAI.name).toBe("OpenAI");
  });

  it("turns a missing openai package into openai_not_installed", async () => {
    for (const missing of [
      Object.assign(new Error("Cannot find package 'openai' imported from /app/x.js"), {
        code: "ERR_MODULE_NOT_FOUND",
      }),
      new Error('Could not resolve "openai"'),
    ]) {
      const error = await loadOpenAI(() => Promise.reject(missing)).catch((e: unknown) => e);
      expect(isPdfGuardError(error) && [error.status, error.code, error.cause]).toEqual([
        500,
        "openai_not_installed",
        missing,
      ]);
      expect((error as Error).message).toContain('need the "openai" package');
    }
  });

  it("passes any other failure unchanged", async () => {
    const broken = new SyntaxError("Unexpected token in openai/index.mjs");
    await expect(loadOpenAI(() => Promise.reject(broken))).rejects.toBe(broken);
  });

  it("loads nothing when the checker is only created", () => {
    // Creating the checker must not import or reach the SDK; only a check does (issue 15).
    const checker = createOpenAIDocumentChecker({ apiKey: "sk-test", baseURL: "http://127.0.0.1:9" });
    expect(checker.name).toBe("openai");
  });
});
