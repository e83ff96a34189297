import { describe, expect, it } from "vitest";
import { isCorsOptionError, parseCorsOrigins } from "./cors.js";
import { createApi } from "./create-api.js";

function errorOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return isCorsOptionError(error)
      ? { code: error.code, origin: error.origin, message: error.message }
      : error;
  }
  return "no error";
}

describe("CORS options", () => {
  it("reads * , a comma-separated list, or nothing", () => {
    expect(parseCorsOrigins("*")).toBe("*");
    expect(parseCorsOrigins(" * ")).toBe("*");
    expect(parseCorsOrigins("https://a.example, http://localhost:5173,")).toEqual([
      "https://a.example",
      "http://localhost:5173",
    ]);
    expect(parseCorsOrigins("")).toEqual([]);
  });

  it("refuses what a browser would never send as Origin, naming the form that would match", () => {
    expect(errorOf(() => parseCorsOrigins("https://a.example/"))).toEqual({
      code: "invalid_cors_origin",
      origin: "https://a.example/",
      message:
        '"https://a.example/" is not an origin: write scheme://host[:port] with nothing after it, such as https://a.example.',
    });
    expect(errorOf(() => parseCorsOrigins("HTTPS://A.example"))).toMatchObject({
      origin: "HTTPS://A.example",
    });
    expect(errorOf(() => parseCorsOrigins("a.example"))).toEqual({
      code: "invalid_cors_origin",
      origin: "a.example",
      message: '"a.example" is not an origin: write scheme://host[:port] with nothing after it.',
    });
    expect(
      errorOf(() => createApi({ publicOnly: true, cors: { protectedOrigins: ["https://p.example/app"] } })),
    ).toMatchObject({
      code: "invalid_cors_origin",
      origin: "https://p.example/app",
    });
  });

  it("cors: false sends no CORS headers and keeps the plain OPTIONS answer", async () => {
    const api = createApi({ publicOnly: true, cors: false });
    const res = await api.fetch(
      new Request("http://localhost/api/v1/ping", {
        method: "OPTIONS",
        headers: { origin: "https://a.example", "access-control-request-method": "GET" },
      }),
    );
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("vary")).toBeNull();
    const get = await api.fetch(
      new Request("http://localhost/api/v1/ping", { headers: { origin: "https://a.example" } }),
    );
    expect(get.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("sends no CORS headers on the root-level probes", async () => {
    const api = createApi({ publicOnly: true });
    const res = await api.fetch(
      new Request("http://localhost/healthz", { headers: { origin: "https://a.example" } }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("vary")).toBeNull();
  });
});
