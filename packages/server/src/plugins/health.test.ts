import { describe, expect, it, vi } from "vitest";
import { createApi } from "../create-api.js";
import type { ReadinessReport } from "./health.js";

const get = (api: ReturnType<typeof createApi>, path: string) =>
  api.fetch(new Request(`http://localhost${path}`));

const quiet = { info() {}, warn() {}, error() {} };

describe("health endpoints", () => {
  it("GET /healthz answers at the root, not below the base path, without calling the readiness check", async () => {
    const readiness = vi.fn(async (): Promise<ReadinessReport> => ({ ready: true, checks: {} }));
    const api = createApi({ publicOnly: true, health: { readiness } });
    const res = await get(api, "/healthz");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ status: "ok" });
    expect(readiness).not.toHaveBeenCalled();
    expect((await get(api, "/api/v1/healthz")).status).toBe(404);
    const head = await api.fetch(new Request("http://localhost/healthz", { method: "HEAD" }));
    expect([head.status, await head.text()]).toEqual([200, ""]);
    const post = await api.fetch(new Request("http://localhost/healthz", { method: "POST" }));
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD, OPTIONS"]);
  });

  it("GET /readyz is 200 with the checks when ready, 503 problem+json with Retry-After when not", async () => {
    let report: ReadinessReport = {
      ready: true,
      checks: { database: "ok", webhook_dispatcher: "off" },
      details: { outbox_oldest_due_seconds: null },
    };
    const api = createApi({ publicOnly: true, health: { readiness: async () => report } });
    const ok = await get(api, "/readyz");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    expect(await ok.json()).toEqual({
      status: "ready",
      checks: { database: "ok", webhook_dispatcher: "off" },
      details: { outbox_oldest_due_seconds: null },
    });
    report = { ready: false, checks: { database: "failing", migrations: "pending" } };
    const down = await get(api, "/readyz");
    expect(down.status).toBe(503);
    expect(down.headers.get("content-type")).toBe("application/problem+json");
    expect(down.headers.get("retry-after")).toBe("5");
    expect(down.headers.get("cache-control")).toBe("no-store");
    expect(await down.json()).toEqual({
      type: "https://incasso.dev/problems/not_ready",
      title: "Service Unavailable",
      status: 503,
      code: "not_ready",
      detail: "Not ready: database failing, migrations pending.",
      checks: { database: "failing", migrations: "pending" },
      details: {},
    });
  });

  it("a check that throws or hangs is not ready, and reveals nothing of the cause", async () => {
    const logger = { ...quiet, error: vi.fn(), warn: vi.fn() };
    const throwing = createApi({
      publicOnly: true,
      logger,
      health: {
        readiness: async () => {
          throw new Error("connect ECONNREFUSED db.internal:5432 password=hunter2");
        },
        retryAfterSeconds: 2,
      },
    });
    const res = await get(throwing, "/readyz");
    expect([res.status, res.headers.get("retry-after")]).toEqual([503, "2"]);
    const text = await res.text();
    expect(text).not.toContain("db.internal");
    expect(JSON.parse(text)).toMatchObject({
      checks: { readiness: "failing" },
      detail: "Not ready: readiness failing.",
    });
    expect(logger.error).toHaveBeenCalledWith("readiness check failed", {
      error: "Error: connect ECONNREFUSED db.internal:5432 password=hunter2",
    });

    let hangingCalls = 0;
    const hanging = createApi({
      publicOnly: true,
      logger,
      health: {
        readiness: () => {
          hangingCalls++;
          return new Promise<ReadinessReport>(() => {});
        },
        timeoutMs: 20,
      },
    });
    const late = await get(hanging, "/readyz");
    expect(late.status).toBe(503);
    expect(await late.json()).toMatchObject({ checks: { readiness: "timeout" } });
    // Later probes time out too, without starting another check against the hung database.
    const later = await get(hanging, "/readyz");
    expect(later.status).toBe(503);
    expect(hangingCalls).toBe(1);
  });

  it("probes that arrive while a check runs share it", async () => {
    let calls = 0;
    const pending: { release: (() => void) | undefined } = { release: undefined };
    const releaseNow = () => (pending.release as (() => void) | undefined)?.();
    const api = createApi({
      publicOnly: true,
      logger: quiet,
      health: {
        readiness: () => {
          calls++;
          return new Promise<ReadinessReport>((resolve) => {
            pending.release = () => resolve({ ready: true, checks: { database: "ok" } });
          });
        },
      },
    });
    const answers = Promise.all([get(api, "/readyz"), get(api, "/readyz"), get(api, "/readyz")]);
    await vi.waitFor(() => expect(pending.release).toBeDefined());
    releaseNow();
    expect((await answers).map((r) => r.status)).toEqual([200, 200, 200]);
    expect(calls).toBe(1);
    // A probe after the check ended runs a new one.
    pending.release = undefined;
    const later = get(api, "/readyz");
    await vi.waitFor(() => expect(pending.release).toBeDefined());
    releaseNow();
    expect((await later).status).toBe(200);
    expect(calls).toBe(2);
  });

  it("is ready without a check, can be left out, and is documented under its own tag at the server root", async () => {
    expect((await get(createApi({ publicOnly: true }), "/readyz")).status).toBe(200);
    expect((await get(createApi({ publicOnly: true, health: false }), "/healthz")).status).toBe(404);
    const doc = createApi({ publicOnly: true, publicUrl: "https://api.example.nl/api/v1" }).openapi();
    expect(doc.paths["/healthz"]?.servers).toEqual([{ url: "https://api.example.nl" }]);
    expect(doc.paths["/readyz"]?.servers).toEqual([{ url: "https://api.example.nl" }]);
    expect((doc.paths["/readyz"]?.get as { tags?: string[] } | undefined)?.tags).toEqual(["health"]);
    expect(doc.paths["/ping"]?.servers).toBeUndefined();
    expect((doc.tags as { name: string }[]).map((t) => t.name)).toContain("health");
    expect(createApi({ publicOnly: true }).openapi().paths["/healthz"]?.servers).toEqual([{ url: "/" }]);
  });
});
