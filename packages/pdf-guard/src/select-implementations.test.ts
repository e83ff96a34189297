import { describe, expect, it } from "vitest";
import { createDocumentChecker, createTitleWriter } from "./select-implementations.js";

describe("implementation selection", () => {
  it("uses OpenAI only when an API key is configured", () => {
    expect(createDocumentChecker().name).toBe("rules");
    expect(createDocumentChecker({ openaiApiKey: "  " }).name).toBe("rules");
    expect(createDocumentChecker({ openaiApiKey: null }).name).toBe("rules");
    expect(createDocumentChecker({ openaiApiKey: "sk-x" }).name).toBe("openai");
    expect(createTitleWriter({ openaiApiKey: "" }).name).toBe("template");
    expect(createTitleWriter({ openaiApiKey: "sk-x", openaiModel: "m" }).name).toBe("openai");
  });
});
