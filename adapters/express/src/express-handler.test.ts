import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fixtureApi } from "@incasso/test-utils";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { incassoExpress } from "./express-handler.js";

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function start(app: express.Express): Promise<string> {
  server = createServer(app);
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("incassoExpress", () => {
  it("serves the API under the mount prefix beside the host's own routes", async () => {
    const app = express();
    app.get("/health", (_req, res) => {
      res.json({ host: "ok" });
    });
    app.use("/collections", incassoExpress(fixtureApi()));
    const base = await start(app);
    const ping = await fetch(`${base}/collections/ping`);
    expect(ping.status).toBe(200);
    expect(await ping.json()).toMatchObject({ status: "ok", authenticated: false });
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ host: "ok" });
  });

  it("explains a host body parser mounted before the API instead of failing obscurely", async () => {
    const app = express();
    app.use(express.json());
    app.use("/api/v1", incassoExpress(fixtureApi()));
    const base = await start(app);
    const res = await fetch(`${base}/api/v1/__test/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = (await res.json()) as { code: string; detail: string };
    expect(body.code).toBe("host_body_already_parsed");
    expect(body.detail).toContain("before express.json()");
    // Requests without a body are unaffected by the host parser.
    expect((await fetch(`${base}/api/v1/ping`)).status).toBe(200);
  });

  it("uses Express's req.ip, so the host's trust proxy setting decides the client IP", async () => {
    const app = express();
    app.set("trust proxy", true);
    app.use("/api/v1", incassoExpress(fixtureApi()));
    const base = await start(app);
    const res = await fetch(`${base}/api/v1/__test/echo`, {
      method: "POST",
      headers: { "x-forwarded-for": "203.0.113.9" },
      body: "x",
    });
    expect(await res.json()).toMatchObject({ client_ip: "203.0.113.9", length: 1 });
  });
});
