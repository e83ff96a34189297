import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { lookupRolRouter } from "@incasso/rol-router";
import { createApi } from "@incasso/server";
import { type RunningTransport, remoteTransport, responseValidator } from "@incasso/test-utils";
import { calculateWik } from "@incasso/wik";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runtimeBinary } from "./runtime-binary.js";

// Issue 32 item 5: the kernel inside workerd (npm `workerd`, its own binary driven with a capnp
// config). `createApi({ publicOnly: true })` of the built @incasso/server, bundled by esbuild for
// a worker as a user would bundle it (the packages' dist through their exports, no tsconfig
// paths), answers GET /ping, GET /openapi.json and the public tools. Needs the workspace build.
const root = fileURLToPath(new URL("../../", import.meta.url));
const workerd = runtimeBinary("workerd");
const skip = "reason" in workerd ? workerd.reason : undefined;
const today = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Amsterdam",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
}).format(new Date());

// The worker a user writes: the API made once, in the module's scope, as `export default { fetch }`.
const WORKER = `import { createApi } from "@incasso/server";
const api = createApi({ publicOnly: true });
export default { fetch: (request) => api.fetch(request) };
`;

/** A free loopback port: workerd takes its socket's address from the config, not port 0. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

const config = (port: number) => `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2026-11-01",
);
`;

const json = (body: unknown) => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

describe("createApi({ publicOnly: true }) inside workerd", () => {
  const dir = mkdtempSync(join(tmpdir(), "incasso-workerd-"));
  const reference = createApi({ publicOnly: true });
  const check = responseValidator(reference.openapi());
  let child: ChildProcess | undefined;
  let t: RunningTransport;

  beforeAll(async () => {
    if (!("command" in workerd)) return;
    // Resolved from the test package, where @incasso/server is a dependency; the bundle keeps no
    // import, so workerd needs no Node compatibility flag.
    await build({
      stdin: { contents: WORKER, resolveDir: join(root, "test"), loader: "js" },
      bundle: true,
      format: "esm",
      platform: "neutral",
      mainFields: ["module", "main"],
      outfile: join(dir, "worker.js"),
      tsconfigRaw: {},
      logLevel: "silent",
    });
    const port = await freePort();
    writeFileSync(join(dir, "config.capnp"), config(port));
    const [file = ""] = workerd.command;
    child = spawn(file, ["serve", "config.capnp"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      log += chunk.toString();
    });
    t = remoteTransport(`http://127.0.0.1:${port}/api/v1`);
    // workerd prints nothing once it listens: ask until it answers (or has exited).
    for (;;) {
      if (child.exitCode !== null) throw new Error(`workerd exited with ${child.exitCode}: ${log}`);
      const ready = await t.request("/ping").catch(() => undefined);
      if (ready) {
        await ready.arrayBuffer();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 120_000);

  afterAll(() => {
    if (child?.exitCode === null) child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("GET /ping answers 200 without a key", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const res = await t.request("/ping");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      status: "ok",
      authenticated: false,
      features: { creditor_management: false },
    });
    check("/ping", "get", 200, body);
  });

  it("GET /openapi.json is the document the same API makes on Node", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const res = await t.request("/openapi.json");
    expect(res.status).toBe(200);
    const onNode = await reference.fetch(new Request("http://127.0.0.1/api/v1/openapi.json"));
    expect(await res.json()).toEqual(await onNode.json());
  });

  it("POST /tools/wik and /tools/rol-router answer exactly as the libraries do, 422 on bad input", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const wikRequest = {
      amount_cents: 1_250_000,
      debtor_type: "business",
      due_date: "2024-02-29",
      include_vat: true,
    };
    const wik = await t.request("/tools/wik", json(wikRequest));
    expect(wik.status).toBe(200);
    const wikBody = await wik.json();
    expect(wikBody).toEqual(calculateWik(wikRequest as never, { today }));
    check("/tools/wik", "post", 200, wikBody);

    const rolRequest = { woonplaats: "Assen", naam: "Van der Berg B.V." };
    const rol = await t.request("/tools/rol-router", json(rolRequest));
    expect(rol.status).toBe(200);
    const rolBody = await rol.json();
    expect(rolBody).toEqual(lookupRolRouter(rolRequest as never, { today }));
    check("/tools/rol-router", "post", 200, rolBody);

    const invalid = await t.request("/tools/rol-router", json({ naam: 5 }));
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get("content-type")).toBe("application/problem+json");
    const body = (await invalid.json()) as { code: string; errors: { field: string }[] };
    expect(body.code).toBe("validation_error");
    expect(body.errors.map((e) => e.field)).toEqual(["woonplaats", "naam"]);
  });

  it("answers a protected route with 404: a public-only API has none", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const res = await t.request("/orders");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(((await res.json()) as { code: string }).code).toBe("not_found");
  });
});
