import { rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createIncasso } from "@incasso/app";
import { answerHttpErrors, incassoFastify, incassoFastifyRootRoutes } from "@incasso/fastify";
import { newDataDir, sendOversizedBody } from "@incasso/test-utils";
import Fastify from "fastify";
import { expect, it } from "vitest";

// The console in a Fastify host, registered as the README says (incassoFastifyRootRoutes serves
// the root routes, the console's pages among them): its forms are posted as
// application/x-www-form-urlencoded, which Fastify does not parse by itself.
it("serves the console's pages and forms through incassoFastifyRootRoutes in a Fastify host", {
  timeout: 60_000,
}, async () => {
  const dir = await newDataDir("incasso-console-fastify-");
  const incasso = await createIncasso(
    { dataDir: dir },
    {
      startLines: false,
      logger: { info() {}, warn() {}, error() {} },
      env: {},
      webhooks: false,
      letters: false,
      operatorEndpoint: false,
    },
  );
  const app = Fastify();
  await app.register(incassoFastifyRootRoutes, { api: incasso.api });
  await app.register(incassoFastify, { api: incasso.api, prefix: "/api/v1" });
  answerHttpErrors(app.server);
  const origin = await app.listen({ port: 0, host: "127.0.0.1" });
  try {
    const form = await fetch(`${origin}/console/inloggen`);
    expect([form.status, form.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
    const { credential } = await incasso.operations.createOperator({ name: "Anne", role: "admin" });
    const wrong = await fetch(`${origin}/console/inloggen`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ credential: "not-a-credential" }),
    });
    expect(wrong.status).toBe(401);
    const login = await fetch(`${origin}/console/inloggen`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ credential }),
    });
    expect([login.status, login.headers.get("location")]).toEqual([303, "/console/zaken"]);
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const keys = await fetch(`${origin}/console/sleutels`, { headers: { cookie } });
    expect(keys.status).toBe(200);
    expect(await keys.text()).toContain("<h1>API-sleutels</h1>");
    // A form over 64 KiB, chunked and with a Content-Length, gets the console's 413 page, and the
    // host goes on answering.
    const port = (app.server.address() as AddressInfo).port;
    for (const framing of ["chunked", "content-length"] as const) {
      const tooLarge = await sendOversizedBody({
        port,
        path: "/console/inloggen",
        framing,
        bytes: 70_000,
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
      });
      expect([tooLarge.status, tooLarge.headers["content-type"]]).toEqual([413, "text/html; charset=utf-8"]);
      expect(tooLarge.body).toContain("Het formulier is te groot.");
    }
    expect((await fetch(`${origin}/api/v1/ping`)).status).toBe(200);
  } finally {
    await app.close();
    await incasso.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
