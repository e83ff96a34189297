import { brotliDecompressSync } from "node:zlib";
import { createApi, type IncassoApi } from "@incasso/server";
import { describe, expect, it } from "vitest";
import { pagesPlugin } from "./pages-plugin.js";

let api: IncassoApi;
api = createApi({ publicOnly: true, plugins: [pagesPlugin({ openapi: () => api.openapi() })] });
const get = (path: string, headers: Record<string, string> = {}) =>
  api.fetch(new Request(`http://x${path}`, { headers }));

describe("pagesPlugin", () => {
  it("serves the tool pages at the root, Dutch first and English on ?lang=en", async () => {
    const nl = await get("/tools/wik");
    expect(nl.status).toBe(200);
    expect(nl.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(nl.headers.get("x-request-id")).toMatch(/^req_/);
    expect(nl.headers.get("content-security-policy")).toContain("script-src 'self';");
    const html = await nl.text();
    expect(html).toContain('<html lang="nl">');
    expect(html).toContain("<h1>WIK-calculator</h1>");
    expect(html).toContain('data-endpoint="/api/v1/tools/wik"');
    expect(html).toContain('<a class="lang" href="/tools/wik?lang=en" lang="en" hreflang="en">English</a>');
    const en = await (await get("/tools/wik?lang=en")).text();
    expect(en).toContain('<html lang="en">');
    expect(en).toContain("<h1>WIK calculator</h1>");
    expect(await (await get("/tools/rol-router?lang=en")).text()).toContain("<h1>Court finder</h1>");
    expect(await (await get("/tools")).text()).toContain("<h1>Openbare hulpmiddelen</h1>");
  });

  it("serves the API reference below the base path with the document inlined", async () => {
    const res = await get("/api/v1/docs", { "accept-encoding": "br" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("br");
    const html = brotliDecompressSync(new Uint8Array(await res.arrayBuffer())).toString();
    expect(html).toContain('<html lang="en">');
    const plain = await (await get("/api/v1/docs")).text();
    expect(plain).toContain('<script src="/api/v1/docs/assets/rapidoc-min.js" defer></script>');
    expect(plain).toContain('"operationId":"calculateWik"');
    const bundle = await get("/api/v1/docs/assets/rapidoc-min.js", { "accept-encoding": "gzip" });
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(bundle.headers.get("content-encoding")).toBe("gzip");
  });

  it("keeps the pages out of the OpenAPI document", () => {
    const paths = Object.keys(api.openapi().paths);
    expect(paths.some((p) => p.startsWith("/docs") || p.startsWith("/tools/wik/") || p === "/tools")).toBe(
      false,
    );
    expect(paths).toContain("/tools/wik");
  });

  it("answers 404 for an unknown page and 405 for another method", async () => {
    expect((await get("/tools/unknown")).status).toBe(404);
    const post = await api.fetch(new Request("http://x/tools/wik", { method: "POST" }));
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toContain("GET");
  });

  it("answers / and /docs with a redirect only when asked to", async () => {
    expect((await get("/")).status).toBe(404);
    let other: IncassoApi;
    other = createApi({
      publicOnly: true,
      plugins: [pagesPlugin({ openapi: () => other.openapi(), rootRedirects: true })],
    });
    const root = await other.fetch(new Request("http://x/"));
    expect([root.status, root.headers.get("location")]).toEqual([302, "/tools"]);
    const docs = await other.fetch(new Request("http://x/docs"));
    expect([docs.status, docs.headers.get("location")]).toEqual([302, "/api/v1/docs"]);
  });

  it("follows the paths it is given and can leave out either part", async () => {
    let other: IncassoApi;
    other = createApi({
      publicOnly: true,
      basePath: "/collections/v1",
      plugins: [
        pagesPlugin({
          openapi: () => other.openapi(),
          apiBasePath: "/collections/v1",
          toolsPath: "/hulp",
          apiReference: false,
        }),
      ],
    });
    const page = await other.fetch(new Request("http://x/hulp/wik"));
    expect(await page.text()).toContain('data-endpoint="/collections/v1/tools/wik"');
    expect((await other.fetch(new Request("http://x/collections/v1/docs"))).status).toBe(404);
  });
});
