import { readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Incasso } from "@incasso/app";
import { newDataDir } from "@incasso/test-utils";
import { afterAll, beforeAll, expect, it, vi } from "vitest";

// Issue 32, item 3: the README's Express snippet serves what the README says every host serves
// (the API, its reference, /tools, /console, the probes), and prints the start lines and the first
// key as `incasso serve` does. The snippet runs as written, but for three things a test must
// change: the data directory (a temporary one), the port (a free one) and the SIGTERM line.
const root = fileURLToPath(new URL("../../", import.meta.url));
const readme = readFileSync(join(root, "README.md"), "utf8");
const snippet = /```ts\n(import express from "express";[\s\S]*?)```/.exec(readme)?.[1] ?? "";

// A copy of a fresh cluster (newDataDir): initdb is most of a new directory's cost.
const dataDir = await newDataDir("incasso-readme-express-");
// Beside this test, so `express` and the @incasso packages resolve as they do for the test.
const file = join(root, "test/examples", `.readme-express-${process.pid}.ts`);
let incasso: Incasso;
let server: Server;
let origin = "";
let written = "";
let infoLines: string[] = [];

beforeAll(async () => {
  const runnable = snippet
    .replace('createIncasso({ dataDir: ".data" })', `createIncasso({ dataDir: ${JSON.stringify(dataDir)} })`)
    .replace("app.listen(3000)", 'app.listen(0, "127.0.0.1")')
    .replace(/^process\.once\("SIGTERM".*$/m, "export { incasso, server };");
  writeFileSync(file, runnable);
  vi.stubEnv("PORT", "3000");
  const write = process.stdout.write.bind(process.stdout);
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk, ...rest) => {
    written += String(chunk);
    return write(chunk, ...(rest as []));
  });
  const info = vi.spyOn(console, "info");
  try {
    ({ incasso, server } = await import(file));
  } finally {
    infoLines = info.mock.calls.map((call) => String(call[0]));
    info.mockRestore();
    spy.mockRestore();
    vi.unstubAllEnvs();
    unlinkSync(file);
  }
  if (!server.listening) await new Promise((resolve) => server.once("listening", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
  await incasso?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

it("is the README's snippet, with the root routes mounted before the API and the parsers", () => {
  expect(snippet).toContain("app.use(incassoExpressRootRoutes(incasso.api));");
  expect(snippet.indexOf("incassoExpressRootRoutes(incasso.api)")).toBeLessThan(
    snippet.indexOf("app.use(express.json())"),
  );
});

it("serves the API, its reference, the tool pages, the console and the probes", async () => {
  const status = async (path: string) => (await fetch(`${origin}${path}`, { redirect: "manual" })).status;
  expect(await status("/api/v1/ping")).toBe(200);
  expect(await status("/api/v1/docs")).toBe(200);
  expect(await status("/api/v1/docs/assets/rapidoc-min.js")).toBe(200);
  expect(await status("/tools")).toBe(200);
  expect(await status("/tools/wik")).toBe(200);
  expect(await status("/tools/rol-router")).toBe(200);
  expect(await status("/console/inloggen")).toBe(200);
  const home = await fetch(`${origin}/console`, { redirect: "manual" });
  expect([home.status, home.headers.get("location")]).toEqual([303, "/console/zaken"]);
  // A console page with a segment of its own reaches the console (its login), not Express's 404.
  const page = await fetch(`${origin}/console/zaken/2026-000001`, { redirect: "manual" });
  expect([page.status, page.headers.get("location")]).toEqual([303, "/console/inloggen"]);
  expect(await status("/healthz")).toBe(200);
  expect(await status("/not-incasso")).toBe(404);
});

it("says at start where the API, the pages and the console are, as incasso serve does", () => {
  expect(infoLines).toEqual(
    expect.arrayContaining([
      "incasso ready: the API at http://localhost:3000/api/v1 once your server listens there",
      "try: curl http://localhost:3000/api/v1/ping, with the key as Authorization: Bearer",
      "pages: API reference http://localhost:3000/api/v1/docs; WIK and court pages http://localhost:3000/tools",
      "console: http://localhost:3000/console",
    ]),
  );
});

it("prints the first key once, and it works", async () => {
  const line = written.split("\n").find((l) => l.includes('"firstKey"'));
  const { firstKey, msg } = JSON.parse(line ?? "{}");
  expect(msg).toBe("created a test key for organisation Demo; it is shown only now");
  const ping = await fetch(`${origin}/api/v1/ping`, { headers: { authorization: `Bearer ${firstKey}` } });
  expect(ping.status).toBe(200);
  expect(await ping.json()).toMatchObject({ authenticated: true });
});
