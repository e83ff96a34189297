import { createDocumentChecker, createTitleWriter } from "@incasso/pdf-guard";
import { describe, expect, it } from "vitest";
import { documentAiSettings } from "./document-ai.js";

describe("documentAiSettings", () => {
  it("chooses the rules checker and the template writer without OPENAI_API_KEY, whatever else is set", () => {
    const ai = documentAiSettings({ "openai-model": "m" }, { OPENAI_API_KEY: "  " });
    expect(ai).toEqual({ config: {}, openai: false, model: undefined });
    expect(createDocumentChecker(ai.config).name).toBe("rules");
    expect(createTitleWriter(ai.config).name).toBe("template");
  });

  it("chooses OpenAI with the key, passing model, time-out and endpoint", () => {
    const ai = documentAiSettings(
      { "openai-model": "gpt-x", "openai-timeout-ms": "1500", "openai-base-url": "http://127.0.0.1:9/v1" },
      { OPENAI_API_KEY: "sk-abc" },
    );
    expect(ai).toEqual({
      config: {
        openaiApiKey: "sk-abc",
        openaiModel: "gpt-x",
        openaiTimeoutMs: 1500,
        openaiBaseURL: "http://127.0.0.1:9/v1",
      },
      openai: true,
      model: "gpt-x",
    });
    expect(createDocumentChecker(ai.config).name).toBe("openai");
    expect(createTitleWriter(ai.config).name).toBe("openai");
    expect(documentAiSettings({}, { OPENAI_API_KEY: "sk-abc" }).model).toBe("gpt-4.1-mini");
  });

  it("refuses a time-out or an endpoint it cannot use", () => {
    expect(() => documentAiSettings({ "openai-timeout-ms": "0" }, {})).toThrow(
      "--openai-timeout-ms must be a whole number of milliseconds, not 0",
    );
    expect(() => documentAiSettings({ "openai-base-url": "api.example" }, {})).toThrow(
      "--openai-base-url must be an http(s) URL, not api.example",
    );
  });
});
