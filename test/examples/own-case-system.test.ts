import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cliProcesses, newDataDir } from "@incasso/test-utils";
import { constructWebhookEvent } from "@incasso/webhook-signing";
import { afterAll, describe, expect, it } from "vitest";
import { startReceiver, waitFor } from "../webhooks/receiver.js";
import { exitCode, startNodeHost } from "./node-host.js";

// Issue 16 item 5, end to end with every part its own process, as an agency runs them: the case
// service (examples/own-case-system/case-service.mjs), the host (server.mjs, after the workspace
// build) and a webhook receiver. An order placed through the API lands in the service; a payment
// booked there reaches the receiver as a signed payment.received, and GET /orders/{id} shows the
// new balance.

const root = fileURLToPath(new URL("../../", import.meta.url));
const example = join(root, "examples", "own-case-system");
const SECRET = "whsec_own_case_system_end_to_end_secret_1";

const cli = cliProcesses();
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  cli.killAll("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const startNode = (script: string, env: Record<string, string>) =>
  startNodeHost(script, { cwd: root, env, children });

describe("examples/own-case-system, its case service and host each started as their own process", () => {
  it("places the order in the case service; a payment booked there arrives signed and GET /orders/{id} shows the new balance", {
    timeout: 120_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "incasso-own-case-system-"));
    // The host's data directory: a copy of a fresh cluster (newDataDir), as initdb is most of a
    // new directory's cost.
    const data = await newDataDir("incasso-own-case-system-data-");
    dirs.push(dir, data);
    const receiver = await startReceiver(() => 204);
    try {
      const service = await startNode(join(example, "case-service.mjs"), {
        CASE_SERVICE_PORT: "0",
        CASE_SERVICE_FILE: join(dir, "cases.json"),
      });
      const host = await startNode(join(example, "server.mjs"), {
        PORT: "0",
        INCASSO_DATA_DIR: data,
        CASE_SERVICE_URL: service.url,
        INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS: "1",
      });
      expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);

      const organisation = `Own case system ${Date.now()}`;
      const storage = ["--data-dir", data];
      const created = await cli.run([
        "keys",
        "create",
        "--organisation",
        organisation,
        "--mode",
        "live",
        "--json",
        ...storage,
      ]);
      expect(created.code).toBe(0);
      const { key } = JSON.parse(created.out) as { key: string };
      const hook = await cli.run([
        "webhooks",
        "set",
        "--organisation",
        organisation,
        "--url",
        receiver.url,
        "--secret",
        SECRET,
        ...storage,
      ]);
      expect(hook.code).toBe(0);

      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      const res = await fetch(`${host.url}/orders`, {
        method: "POST",
        headers: { ...headers, "idempotency-key": "own-1" },
        body: JSON.stringify({
          type: "incasso",
          reference: "OWN-1",
          debtors: [
            {
              type: "business",
              company_name: "Voorbeeld B.V.",
              customer_number: "K-OWN-1",
              address: { street: "Teststraat", house_number: "1", postal_code: "9999 ZZ", city: "Testdorp" },
            },
          ],
          invoices: [
            {
              invoice_number: "F-1",
              invoice_date: "2026-09-01",
              due_date: "2026-09-15",
              amount_cents: 100_000,
            },
          ],
        }),
      });
      expect(res.status).toBe(201);
      const order = (await res.json()) as { id: string; case: { case_number: string; new: boolean } };
      expect(order.case.new).toBe(true);
      expect(order.case.case_number).toMatch(/^OWN-\d{6}$/);

      // The order is in the case service, with its invoice.
      const cases = (await (await fetch(`${service.url}/cases`)).json()) as {
        cases: { case_number: string; orders: string[]; principal_cents: number; status: string }[];
      };
      expect(cases.cases.find((c) => c.case_number === order.case.case_number)).toMatchObject({
        orders: [order.id],
        principal_cents: 100_000,
        status: "Nieuw",
      });

      // A handler of the agency takes the case into treatment: the balance appears.
      const handle = (path: string, body: unknown) =>
        fetch(`${service.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      expect(
        (await handle(`/cases/${order.case.case_number}/status`, { status: "In behandeling" })).status,
      ).toBe(200);
      const readBalance = async () =>
        (
          (await (await fetch(`${host.url}/orders/${order.id}`, { headers })).json()) as {
            case: { status: string; balance_due_cents?: number };
          }
        ).case;
      // Principal plus the BIK costs on EUR 1,000 (15% of 1,000 = EUR 150): the service's figure.
      expect(await readBalance()).toMatchObject({ status: "In behandeling", balance_due_cents: 115_000 });

      // The debtor pays EUR 250 and the handler books it in the case service.
      expect(
        (
          await handle(`/cases/${order.case.case_number}/payments`, {
            amount_cents: 25_000,
            payment_date: "2026-11-20",
          })
        ).status,
      ).toBe(200);
      const payment = await waitFor(
        () =>
          receiver.received
            .map((delivery) => constructWebhookEvent(delivery.body, delivery.headers, SECRET))
            .find((event) => event.type === "payment.received"),
        "a signed payment.received",
      );
      expect(payment.data).toEqual({
        order_id: order.id,
        case_number: order.case.case_number,
        reference: "OWN-1",
        case_event: "betaling_geboekt",
      });
      expect(await readBalance()).toMatchObject({ balance_due_cents: 90_000 });

      host.child.kill("SIGTERM");
      expect(await exitCode(host.child)).toBe(0);
      service.child.kill("SIGTERM");
      expect(await exitCode(service.child)).toBe(0);
    } finally {
      await receiver.close();
    }
  });
});
