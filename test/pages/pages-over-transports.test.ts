import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { pagesPlugin } from "@incasso/pages";
import { createApi, type IncassoApi } from "@incasso/server";
import { type RunningTransport, transports } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The pages are routes of the API, so every host serves them: the reference with the API's own
// mount, the tool pages with the root routes (as the health probes), compressed as the client asks.
let api: IncassoApi;
api = createApi({ publicOnly: true, plugins: [pagesPlugin({ openapi: () => api.openapi() })] });
// Over the network fetch decodes the body; in process the Response is the one the API made.
async function body(t: RunningTransport, res: Response): Promise<string> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (t.address) return new TextDecoder().decode(bytes);
  const coding = res.headers.get("content-encoding");
  if (coding === "gzip") return gunzipSync(bytes).toString();
  if (coding === "br") return brotliDecompressSync(bytes).toString();
  return new TextDecoder().decode(bytes);
}

// RapiDoc is a dependency of the pages package, so it is resolved from there.
const fromPages = createRequire(new URL("../../packages/pages/package.json", import.meta.url));
const bundle = readFileSync(fromPages.resolve("rapidoc/dist/rapidoc-min.js"), "utf8");

describe.each(transports)("the pages over $name", (transport) => {
  let t: RunningTransport;
  beforeAll(async () => {
    t = await transport.start(api);
  });
  afterAll(() => t.close());

  it("serves the API reference and RapiDoc's bundle below the base path, compressed", async () => {
    const page = await t.request("/docs", { headers: { "accept-encoding": "gzip" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-encoding")).toBe("gzip");
    expect(await body(t, page)).toContain('<rapi-doc id="api-reference"');
    const script = await t.request("/docs/assets/rapidoc-min.js", { headers: { "accept-encoding": "br" } });
    expect(script.status).toBe(200);
    expect(script.headers.get("content-encoding")).toBe("br");
    expect(await body(t, script)).toBe(bundle);
  });

  it("serves the tool pages at the host's root", async () => {
    if (!t.requestRoot) return; // Azure Functions serves nothing at the root (decision server-health-endpoints)
    const wik = await t.requestRoot("/tools/wik", { headers: { "accept-encoding": "gzip" } });
    expect(wik.status).toBe(200);
    expect(await body(t, wik)).toContain("<h1>WIK-calculator</h1>");
    const css = await t.requestRoot("/tools/assets/tools.css");
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
  });
});
