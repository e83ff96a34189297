import { createBuiltInCaseSystem, openCaseSystemStore } from "@incasso/case-system";
import { issueApiKey } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { fixtureApi } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { business, count, orderBody } from "./orders-fixtures.js";

// Decision server-body-budget: a global budget for request bodies (and the attachments decoded
// from them) in flight; past it, 503 server_busy with Retry-After before the body is read.

let store: SqlStore;
let key: string;
let organisationId: string;
beforeAll(async () => {
  store = await openCaseSystemStore();
  const issued = await issueApiKey(store, {
    organisation: "budget",
    mode: "live",
    perMinute: 1000,
    perDay: 10_000,
  });
  key = issued.key;
  organisationId = issued.record.organisationId;
});
afterAll(() => store.close());

/** An order body padded with spaces (valid JSON) to exactly `size` bytes. */
function paddedOrder(reference: string, size: number): Uint8Array<ArrayBuffer> {
  const text = JSON.stringify(orderBody({ reference, debtors: [business(`B-${reference}`)] }));
  return new TextEncoder().encode(text.padEnd(size, " "));
}

/**
 * A POST /orders whose body is held back after its first byte until `release()` is called, so the
 * request stays in flight with its share of the budget.
 */
function heldOrder(
  api: ReturnType<typeof fixtureApi>,
  body: Uint8Array<ArrayBuffer>,
  idempotencyKey: string,
) {
  let release = () => {};
  const released = new Promise<void>((r) => {
    release = r;
  });
  let step = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (step === 0) controller.enqueue(body.subarray(0, 1));
      else if (step === 1) {
        await released;
        controller.enqueue(body.subarray(1));
      } else controller.close();
      step++;
    },
  });
  const response = api.fetch(
    new Request("http://x/api/v1/orders", {
      method: "POST",
      headers: post(body.byteLength, idempotencyKey),
      body: stream,
      duplex: "half",
    } as RequestInit),
  );
  return { response, release };
}

function post(length: number | null, idempotencyKey: string): Record<string, string> {
  return {
    authorization: `Bearer ${key}`,
    "content-type": "application/json",
    "idempotency-key": idempotencyKey,
    ...(length === null ? {} : { "content-length": String(length) }),
  };
}

const storedOrders = () =>
  count(store, "SELECT count(*) AS n FROM orders WHERE organisation_id = $1", [organisationId]);

describe("POST /orders under the body budget", () => {
  // 100 KB bodies, weighed 1.75 (an order's attachments are decoded): 175 KB each; two do not fit.
  const size = 100_000;
  const budget = 250_000;

  it("a second large request while one is in flight → 503 server_busy with Retry-After, nothing stored; afterwards the budget is free", async () => {
    const api = fixtureApi({
      store,
      orders: { caseSystem: createBuiltInCaseSystem({ store }) },
      pdfEngine: undefined,
      logger: { info() {}, warn() {}, error() {} },
      bodyBudgetBytes: budget,
    });
    const before = await storedOrders();
    const first = heldOrder(api, paddedOrder("budget-1", size), "budget-1");
    // The first request holds its share once its body is being read.
    await new Promise((r) => setTimeout(r, 50));

    const refused = await Promise.all(
      ["budget-2", "budget-3"].map((ref) =>
        api.fetch(
          new Request("http://x/api/v1/orders", {
            method: "POST",
            headers: post(size, ref),
            body: paddedOrder(ref, size),
          }),
        ),
      ),
    );
    for (const res of refused) {
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(await res.json()).toMatchObject({ status: 503, code: "server_busy" });
    }
    expect(await storedOrders()).toBe(before);

    first.release();
    expect((await first.response).status).toBe(201);
    expect(await storedOrders()).toBe(before + 1);

    // The share went back with the answer: the refused requests now pass, one after the other,
    // and a retry with the same Idempotency-Key is a first attempt (nothing was bound to it).
    for (const ref of ["budget-2", "budget-3"]) {
      const res = await api.fetch(
        new Request("http://x/api/v1/orders", {
          method: "POST",
          headers: post(size, ref),
          body: paddedOrder(ref, size),
        }),
      );
      expect(res.status).toBe(201);
      expect(res.headers.get("idempotency-replayed")).toBeNull();
    }
    expect(await storedOrders()).toBe(before + 3);
  });

  it("a chunked body is counted as it arrives: past the budget, 503 server_busy", async () => {
    const api = fixtureApi({
      store,
      orders: { caseSystem: createBuiltInCaseSystem({ store }) },
      pdfEngine: undefined,
      logger: { info() {}, warn() {}, error() {} },
      bodyBudgetBytes: budget,
    });
    const before = await storedOrders();
    const first = heldOrder(api, paddedOrder("budget-4", size), "budget-4");
    await new Promise((r) => setTimeout(r, 50));
    const body = paddedOrder("budget-5", size);
    let sent = 0;
    const chunked = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= body.byteLength) return controller.close();
        controller.enqueue(body.subarray(sent, sent + 10_000));
        sent += 10_000;
      },
    });
    const res = await api.fetch(
      new Request("http://x/api/v1/orders", {
        method: "POST",
        headers: post(null, "budget-5"),
        body: chunked,
        duplex: "half",
      } as RequestInit),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toMatchObject({ code: "server_busy" });
    // Refused part-way: the rest of the body was not read.
    expect(sent).toBeLessThan(body.byteLength);
    first.release();
    expect((await first.response).status).toBe(201);
    expect(await storedOrders()).toBe(before + 1);
  });

  it("one request alone always proceeds, even when it is larger than the budget", async () => {
    const api = fixtureApi({
      store,
      orders: { caseSystem: createBuiltInCaseSystem({ store }) },
      pdfEngine: undefined,
      logger: { info() {}, warn() {}, error() {} },
      bodyBudgetBytes: 1000,
    });
    const res = await api.fetch(
      new Request("http://x/api/v1/orders", {
        method: "POST",
        headers: post(size, "budget-6"),
        body: paddedOrder("budget-6", size),
      }),
    );
    expect(res.status).toBe(201);
  });
});
