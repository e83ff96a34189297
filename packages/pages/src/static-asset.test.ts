import { brotliCompressSync, brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { chooseCoding, StaticAsset } from "./static-asset.js";

describe("chooseCoding", () => {
  it("prefers brotli, then gzip, and honours q=0", () => {
    expect(chooseCoding("gzip, deflate, br")).toBe("br");
    expect(chooseCoding("gzip")).toBe("gzip");
    expect(chooseCoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(chooseCoding("gzip;q=0, br;q=0")).toBe("identity");
    expect(chooseCoding(null)).toBe("identity");
    expect(chooseCoding("identity")).toBe("identity");
  });
});

describe("StaticAsset", () => {
  const text = "body { color: #1f2933; } ".repeat(200);
  const asset = new StaticAsset(
    new TextEncoder().encode(text),
    "text/css; charset=utf-8",
    "public, max-age=3600",
  );
  const get = (headers: Record<string, string>) => asset.respond(new Request("http://x/a.css", { headers }));

  it("sends brotli or gzip as accepted, with Vary, length and a validator per coding", async () => {
    const br = get({ "accept-encoding": "gzip, br" });
    expect(br.status).toBe(200);
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toBe("Accept-Encoding");
    expect(br.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(br.headers.get("cache-control")).toBe("public, max-age=3600");
    const brBytes = new Uint8Array(await br.arrayBuffer());
    expect(br.headers.get("content-length")).toBe(String(brBytes.byteLength));
    expect(brBytes.byteLength).toBeLessThan(text.length / 10);
    expect(brotliDecompressSync(brBytes).toString()).toBe(text);

    const gz = get({ "accept-encoding": "gzip" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(new Uint8Array(await gz.arrayBuffer())).toString()).toBe(text);

    const plain = get({});
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(text);

    const etags = [br, gz, plain].map((r) => r.headers.get("etag"));
    expect(new Set(etags).size).toBe(3);
    expect(etags[2]).toBe(asset.etag);
    expect(etags[0]).toBe(`${asset.etag.slice(0, -1)}-br"`);
  });

  it("answers 304 without a body when the client has the same representation", async () => {
    const first = get({ "accept-encoding": "br" });
    const again = get({ "accept-encoding": "br", "if-none-match": first.headers.get("etag") as string });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    // Another coding's validator does not match.
    expect(
      get({ "accept-encoding": "gzip", "if-none-match": first.headers.get("etag") as string }).status,
    ).toBe(200);
  });

  it("serves codings made ahead as they are, and makes only the missing one", async () => {
    const body = new TextEncoder().encode(text);
    const made = brotliCompressSync(body);
    const ahead = new StaticAsset(body, "text/javascript; charset=utf-8", "public", {}, { br: made });
    const br = ahead.respond(new Request("http://x/a.js", { headers: { "accept-encoding": "br" } }));
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(new Uint8Array(await br.arrayBuffer())).toEqual(new Uint8Array(made));
    expect(br.headers.get("content-length")).toBe(String(made.byteLength));
    const gz = ahead.respond(new Request("http://x/a.js", { headers: { "accept-encoding": "gzip" } }));
    expect(gunzipSync(new Uint8Array(await gz.arrayBuffer())).toString()).toBe(text);
  });
});
