import { describe, expect, it } from "vitest";
import { isApiError } from "./api-error.js";
import { createBodyBudget } from "./body-budget.js";
import { MAX_JSON_DEPTH, readBodyBytes, readJsonBody } from "./json-body.js";

const post = (body: BodyInit | null, contentType: string | null = "application/json") =>
  new Request("http://x/", {
    method: "POST",
    body,
    headers: contentType ? { "content-type": contentType } : {},
  });

async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    if (isApiError(e)) return [e.status, e.code];
    throw e;
  }
  throw new Error("expected a failure");
}

/**
 * Counts the turns of the event loop (timers and I/O phases) that run while `work` is awaited: a
 * ticker rescheduled with setTimeout 0 runs once per turn.
 */
async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let done = false;
  const tick = () => {
    if (done) return;
    turns++;
    setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  try {
    await work();
  } finally {
    done = true;
  }
  return turns;
}

describe("readJsonBody", () => {
  it("gives the event loop a turn between the steps over a body of 1 MiB or more, and none over a small one (issue 22, item 5)", async () => {
    const large = JSON.stringify({ content_base64: "A".repeat(2 * 1024 * 1024) });
    // Decoding, parsing, and what the caller does next: a turn before each, so a request that
    // arrived meanwhile (GET /ping) is served between them.
    expect(await turnsDuring(() => readJsonBody(post(large)))).toBeGreaterThanOrEqual(3);
    expect(await turnsDuring(() => readJsonBody(post('{"a":1}')))).toBe(0);
  });

  it("parses JSON with or without a charset parameter", async () => {
    expect(await readJsonBody(post('{"a":1}'))).toEqual({ a: 1 });
    expect(await readJsonBody(post('{"a":1}', "Application/JSON; charset=utf-8"))).toEqual({ a: 1 });
  });

  it("refuses a content coding other than identity and a charset other than UTF-8 with 415", async () => {
    const withHeaders = (headers: Record<string, string>) =>
      new Request("http://x/", {
        method: "POST",
        body: '{"a":1}',
        headers: { "content-type": "application/json", ...headers },
      });
    for (const headers of [
      { "content-encoding": "gzip" },
      { "content-encoding": "identity,x-custom" },
      { "content-type": "application/json; charset=utf-16" },
      { "content-type": 'application/json; foo=bar; Charset="latin1"' },
    ] as Record<string, string>[]) {
      expect(await failure(readJsonBody(withHeaders(headers))), JSON.stringify(headers)).toEqual([
        415,
        "unsupported_media_type",
      ]);
    }
    for (const headers of [
      { "content-encoding": "identity" },
      { "content-encoding": "" },
      { "content-type": "application/json; charset=UTF8" },
      { "content-type": "application/json; foo=bar" },
    ] as Record<string, string>[]) {
      expect(await readJsonBody(withHeaders(headers)), JSON.stringify(headers)).toEqual({ a: 1 });
    }
  });

  it("refuses other media types with 415", async () => {
    expect(await failure(readJsonBody(post("a=1", "application/x-www-form-urlencoded")))).toEqual([
      415,
      "unsupported_media_type",
    ]);
    expect(await failure(readJsonBody(post('{"a":1}', null)))).toEqual([415, "unsupported_media_type"]);
  });

  it("answers 400 empty_body and invalid_json", async () => {
    expect(await failure(readJsonBody(post("")))).toEqual([400, "empty_body"]);
    expect(await failure(readJsonBody(post("  \n ")))).toEqual([400, "empty_body"]);
    expect(await failure(readJsonBody(post("{nope")))).toEqual([400, "invalid_json"]);
    expect(await failure(readJsonBody(post(new Uint8Array([0x7b, 0xff, 0x7d]))))).toEqual([
      400,
      "invalid_json",
    ]);
  });

  it("answers 400 invalid_json for nesting deeper than MAX_JSON_DEPTH, at any place in the body", async () => {
    expect(MAX_JSON_DEPTH).toBe(64);
    const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
    expect(await readJsonBody(post(nested(64)))).toEqual(JSON.parse(nested(64)));
    expect(await failure(readJsonBody(post(nested(65))))).toEqual([400, "invalid_json"]);
    // Deep inside an unknown field of an otherwise flat object, mixing objects and arrays.
    const deep = `{"a":1,"b":${'{"x":['.repeat(40)}1${"]}".repeat(40)}}`;
    expect(await failure(readJsonBody(post(deep)))).toEqual([400, "invalid_json"]);
    // Thousands of levels (a few KB) are refused the same way, never a stack overflow.
    expect(await failure(readJsonBody(post(nested(20_000))))).toEqual([400, "invalid_json"]);
    // Wide is not deep.
    expect(await readJsonBody(post(`[${Array(10_000).fill("[[]]").join(",")}]`))).toHaveLength(10_000);
  });

  it("answers 422 invalid_character for each string holding the NUL character, and only for those", async () => {
    const res = readJsonBody(
      post('{"reference":"a\\u0000b","debtors":[{"name":"\\u0000"}],"note":"\\\\u0000"}'),
    );
    await expect(res).rejects.toMatchObject({
      status: 422,
      code: "validation_error",
      errors: [
        {
          field: "reference",
          code: "invalid_character",
          message: "must not contain the NUL character (U+0000)",
        },
        {
          field: "debtors[0].name",
          code: "invalid_character",
          message: "must not contain the NUL character (U+0000)",
        },
      ],
    });
    // An escaped backslash before "u0000" is no NUL character.
    expect(await readJsonBody(post('{"note":"\\\\u0000"}'))).toEqual({ note: "\\u0000" });
  });

  it("answers 422 invalid_character for each string or key holding an unpaired surrogate, and passes pairs", async () => {
    const res = readJsonBody(
      post('{"city":"\\uD800","pair":"\\ud83d\\ude00","metadata":{"k\\udc00":"v"},"note":"\\\\ud800"}'),
    );
    await expect(res).rejects.toMatchObject({
      status: 422,
      code: "validation_error",
      errors: [
        {
          field: "city",
          code: "invalid_character",
          message: "must not contain an unpaired surrogate (U+D800 to U+DFFF)",
        },
        { field: 'metadata["k\\udc00"]', code: "invalid_character" },
      ],
    });
    expect(await readJsonBody(post('{"pair":"\\ud83d\\ude00","note":"\\\\ud800"}'))).toEqual({
      pair: "\u{1f600}",
      note: "\\ud800",
    });
    // The same surrogate as UTF-8 bytes (CESU-8) is no UTF-8 at all: 400, as before.
    const cesu = new Uint8Array([...new TextEncoder().encode('{"a":"'), 0xed, 0xa0, 0x80, 0x22, 0x7d]);
    await expect(readJsonBody(post(cesu))).rejects.toMatchObject({ status: 400, code: "invalid_json" });
  });

  it("reads large bodies the same whether ASCII or not: a BOM dropped, bad UTF-8 refused", async () => {
    const base64 = "QUJD".repeat(40_000);
    expect(await readJsonBody(post(JSON.stringify({ a: base64 })))).toEqual({ a: base64 });
    const encoder = new TextEncoder();
    const withBom = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...encoder.encode(JSON.stringify({ a: base64, b: "é" })),
    ]);
    expect(await readJsonBody(post(withBom))).toEqual({ a: base64, b: "é" });
    // A byte past ASCII that starts no UTF-8 sequence, after 160 KB of ASCII.
    const bad = new Uint8Array([...encoder.encode(`{"a":"${base64}`), 0xff, 0x22, 0x7d]);
    expect(await failure(readJsonBody(post(bad)))).toEqual([400, "invalid_json"]);
  });

  it("answers 400 bad_request when the body stream breaks off (the client went away)", async () => {
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"a":'));
        controller.error(new Error("aborted"));
      },
    });
    const req = new Request("http://x/", {
      method: "POST",
      body: broken,
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expect(await failure(readJsonBody(req))).toEqual([400, "bad_request"]);
  });

  it("counts bytes while streaming and answers 413 past the limit", async () => {
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new Uint8Array(400).fill(0x20));
        controller.close();
      },
    });
    const req = new Request("http://x/", {
      method: "POST",
      body: chunks,
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expect(await failure(readJsonBody(req, { maxBytes: 1000 }))).toEqual([413, "payload_too_large"]);
  });

  it("refuses a declared Content-Length over the limit before reading", async () => {
    const req = new Request("http://x/", {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json", "content-length": "999999" },
    });
    expect(await failure(readJsonBody(req, { maxBytes: 10 }))).toEqual([413, "payload_too_large"]);
  });

  it("returns undefined for an absent optional body", async () => {
    expect(
      await readJsonBody(new Request("http://x/", { method: "POST" }), { optional: true }),
    ).toBeUndefined();
  });

  it("treats an empty optional body without Content-Type as absent, as curl -X POST sends it", async () => {
    const empty = new Request("http://x/", { method: "POST", body: new Uint8Array(0) });
    expect(await readJsonBody(empty, { optional: true })).toBeUndefined();
    const text = new Request("http://x/", { method: "POST", body: new TextEncoder().encode("reason") });
    expect(await failure(readJsonBody(text, { optional: true }))).toEqual([415, "unsupported_media_type"]);
    expect(await failure(readJsonBody(new Request("http://x/", { method: "POST" })))).toEqual([
      415,
      "unsupported_media_type",
    ]);
  });

  it("treats an absent optional body as absent whatever Content-Type it declares; content must be JSON", async () => {
    const post = (contentType: string, body?: string) =>
      new Request("http://x/", {
        method: "POST",
        headers: { "content-type": contentType },
        ...(body === undefined ? {} : { body }),
      });
    expect(await readJsonBody(post("text/plain"), { optional: true })).toBeUndefined();
    expect(
      await readJsonBody(post("application/x-www-form-urlencoded", ""), { optional: true }),
    ).toBeUndefined();
    expect(await failure(readJsonBody(post("text/plain", "{}"), { optional: true }))).toEqual([
      415,
      "unsupported_media_type",
    ]);
    expect(await failure(readJsonBody(post("text/plain")))).toEqual([415, "unsupported_media_type"]);
  });
});

describe("readBodyBytes under a body budget", () => {
  const streamOf = (...parts: string[]) => {
    const chunks = parts.map((p) => new TextEncoder().encode(p));
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
  };
  const request = (contentLength: string, ...parts: string[]) =>
    new Request("http://x/", {
      method: "POST",
      headers: { "content-length": contentLength },
      body: streamOf(...parts),
      duplex: "half",
    } as RequestInit);

  it("reads a body with a Content-Length under the budget, and keeps every byte when the length was wrong", async () => {
    const budget = createBodyBudget(1000);
    const exact = await readBodyBytes(request("10", "01234", "56789"), 100, budget.open());
    expect(new TextDecoder().decode(exact)).toBe("0123456789");
    const longer = await readBodyBytes(request("4", "0123", "456"), 100, budget.open());
    expect(new TextDecoder().decode(longer)).toBe("0123456");
    const shorter = await readBodyBytes(request("9", "0123"), 100, budget.open());
    expect(new TextDecoder().decode(shorter)).toBe("0123");
  });
});
