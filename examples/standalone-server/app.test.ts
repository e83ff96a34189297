import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: the example is plain JavaScript without type declarations
import { startServer } from "./app.mjs";

describe("example: standalone server", () => {
  let close = () => {};
  afterAll(() => close());

  it("serves GET /ping and the OpenAPI document", async () => {
    const { server, url } = await startServer({ port: 0 });
    close = () => server.close();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const ping = await fetch(`${url}/ping`);
    expect(ping.status).toBe(200);
    expect(await ping.json()).toMatchObject({ status: "ok", authenticated: false });
    expect((await fetch(`${url}/openapi.json`)).status).toBe(200);
  });
});
