// A PDF engine that cannot judge the files (busy, shut down, not startable) is never a refusal of
// the client's PDFs: POST /orders answers 503 attachment_check_unavailable, stores nothing, and
// takes Retry-After from the engine's error in the shared error shape (decision
// orders-engine-pdf-engine-busy; RFC 9110 §10.2.3).
import { createBuiltInCaseSystem, openCaseSystemStore } from "@incasso/case-system";
import { issueApiKey } from "@incasso/core";
import { type PdfEngine, PdfGuardError } from "@incasso/pdf-guard";
import type { SqlStore } from "@incasso/store-sql";
import { fixtureApi, inProcessTransport, type RunningTransport } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTextPdf } from "../../packages/pdf-guard/src/internal/testing/fixtures.js";
import { business, count, json, orderBody } from "./orders-fixtures.js";

let store: SqlStore;
let pdfBase64: string;
const running: RunningTransport[] = [];
const quiet = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  store = await openCaseSystemStore();
  pdfBase64 = Buffer.from(await makeTextPdf({ pages: [["Factuur F-1"]] })).toString("base64");
});
afterAll(async () => {
  await Promise.all(running.splice(0).map((t) => t.close()));
  await store.close();
});

async function answerWith(failure: unknown, customerNumber: string): Promise<Response> {
  const pdfEngine: PdfEngine = { parse: () => Promise.reject(failure) };
  const api = fixtureApi({
    store,
    orders: { caseSystem: createBuiltInCaseSystem({ store }) },
    pdfEngine,
    logger: quiet,
  });
  const t = await inProcessTransport.start(api);
  running.push(t);
  const { key } = await issueApiKey(store, { organisation: `busy ${customerNumber}`, mode: "live" });
  const body = orderBody({
    debtors: [business(customerNumber)],
    attachments: [{ filename: "factuur-1.pdf", content_base64: pdfBase64 }],
  });
  return t.request("/orders", json(key, body));
}

describe("POST /orders while the PDF engine cannot judge the files", () => {
  it("503 attachment_check_unavailable with the busy engine's Retry-After, and nothing stored", async () => {
    const busy = new PdfGuardError({
      status: 503,
      code: "pdf_engine_busy",
      detail: "No PDF worker became free within 3000 ms.",
      retryAfterSeconds: 3,
    });
    const before = await count(store, "SELECT count(*) AS n FROM orders");
    const res = await answerWith(busy, "BUSY-1");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("3");
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toMatchObject({ status: 503, code: "attachment_check_unavailable" });
    expect(await count(store, "SELECT count(*) AS n FROM orders")).toBe(before);
  });

  it("an engine failure without a Retry-After of its own gets 5 s", async () => {
    const res = await answerWith(new Error("the engine broke"), "BUSY-2");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toMatchObject({ status: 503, code: "attachment_check_unavailable" });
  });
});
