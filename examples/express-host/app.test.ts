import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: the example is plain JavaScript without type declarations
import { createApp } from "./app.mjs";

describe("example: Express host", () => {
  const server = createServer(createApp());
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("serves the API and the host's own JSON route side by side", async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const ping = await fetch(`${base}/api/v1/ping`);
    expect(ping.status).toBe(200);
    expect(await ping.json()).toMatchObject({ status: "ok" });
    const notes = await fetch(`${base}/internal/notes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"n":1}',
    });
    expect(notes.status).toBe(201);
    expect(await notes.json()).toEqual({ saved: { n: 1 } });
    const missing = await fetch(`${base}/api/v1/orders-nope`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toBe("application/problem+json");
  });
});
