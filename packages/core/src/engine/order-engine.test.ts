import type { PdfEngine } from "@incasso/pdf-guard";
import { describe, expect, it } from "vitest";
import type { CaseSystem } from "../case-system-port.js";
import type { IncassoStore } from "../store-port.js";
import { createOrderEngine } from "./order-engine.js";

// createOrderEngine only keeps the store and the case system; these stand-ins are never called.
const base = { store: {} as IncassoStore, caseSystem: {} as CaseSystem };
const pdfEngine: PdfEngine = { parse: async () => ({ ok: false, reason: "damaged", detail: "stand-in" }) };

describe("createOrderEngine and the PDF engine", () => {
  it("parses on the calling thread unless given an engine", () => {
    const engine = createOrderEngine(base);
    expect(engine.pdfEngine).toBeNull();
    expect(Object.keys(engine)).not.toContain("pdfIsolation");
  });

  it("keeps the engine it is given", () => {
    const engine = createOrderEngine({ ...base, pdfEngine });
    expect(engine.pdfEngine).toBe(pdfEngine);
  });
});
