import { rmSync } from "node:fs";
import { newDataDir } from "@incasso/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { createIncasso, EMBEDDED_BODY_BUDGET_BYTES } from "./create-incasso.js";

// Decision server-body-budget: on embedded PGlite the body budget is 128 MiB, so one order of the
// largest size (a 39 MB body, weighed 1.75: 68.25 MB) is read at a time; createApi's 160 MiB let
// two in. A host's own budget wins.

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const quiet = { info() {}, warn() {}, error() {} };
const LARGEST = 39_000_000;

/**
 * A POST /orders declaring the largest body, of which only `{` arrives until `end()`. `reading`
 * settles when the API first asks for the body: with a high-water mark of 0 the stream is pulled
 * only by a reader, so the test waits on that event rather than on a timer.
 */
function heldOrder(fetch: (r: Request) => Promise<Response>, key: string, idempotencyKey: string) {
  let end = () => {};
  const ended = new Promise<void>((r) => {
    end = r;
  });
  let began = () => {};
  const reading = new Promise<"reading">((r) => {
    began = () => r("reading");
  });
  let step = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        began();
        if (step++ === 0) controller.enqueue(new TextEncoder().encode("{"));
        else {
          await ended;
          controller.close();
        }
      },
    },
    { highWaterMark: 0 },
  );
  const response = fetch(
    new Request("http://x/api/v1/orders", {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        "content-length": String(LARGEST),
        "idempotency-key": idempotencyKey,
      },
      body,
      duplex: "half",
    } as RequestInit),
  );
  return { response, end, reading };
}

async function twoLargestAtOnce(api?: { bodyBudgetBytes: number }) {
  const dir = await newDataDir("incasso-budget-");
  dirs.push(dir);
  const incasso = await createIncasso(
    { dataDir: dir },
    {
      startLines: false,
      logger: quiet,
      env: {},
      webhooks: false,
      letters: false,
      console: false,
      ...(api ? { api } : {}),
    },
  );
  try {
    const { key } = await incasso.operations.createKey({ organisation: "Budget BV", mode: "live" });
    const fetch = (r: Request) => incasso.api.fetch(r);
    const first = heldOrder(fetch, key, "first");
    // The first holds its share once its body is being read.
    await first.reading;
    const second = heldOrder(fetch, key, "second");
    // Refused, the second is answered without its body being asked for; let in, it is read.
    const early = await Promise.race([second.response, second.reading]);
    first.end();
    second.end();
    // Both bodies end after "{": whatever was read is invalid JSON.
    expect((await first.response).status).toBe(400);
    if (early === "reading") return { second: "reading", status: (await second.response).status };
    const res = early as Response;
    return {
      second: "answered",
      status: res.status,
      retryAfter: res.headers.get("retry-after"),
      code: ((await res.json()) as { code: string }).code,
    };
  } finally {
    await incasso.stop();
  }
}

describe("the body budget of createIncasso on embedded PGlite", () => {
  it("is 128 MiB", () => {
    expect(EMBEDDED_BODY_BUDGET_BYTES).toBe(134_217_728);
  });

  it("reads one order of the largest size at a time: a second gets 503 server_busy before its body is read", async () => {
    expect(await twoLargestAtOnce()).toEqual({
      second: "answered",
      status: 503,
      retryAfter: "5",
      code: "server_busy",
    });
  });

  it("gives way to a host's own budget, which lets the second in", async () => {
    expect(await twoLargestAtOnce({ bodyBudgetBytes: 160 * 1024 * 1024 })).toEqual({
      second: "reading",
      status: 400,
    });
  });
});
