import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cliProcesses, newDataDir } from "@incasso/test-utils";
import { constructWebhookEvent } from "@incasso/webhook-signing";
import { afterAll, describe, expect, it } from "vitest";
import { type ReceivedDelivery, startReceiver, waitFor } from "../webhooks/receiver.js";
import { exitCode, startNodeHost } from "./node-host.js";

// Issue 15 item 4: every example host starts the same way (`node examples/NAME/server.mjs`, PORT,
// HOST, INCASSO_DATA_DIR or DATABASE_URL), and serves the whole service: orders, creditors,
// control requests, webhooks delivered signed to a local receiver and the 14-day letter. The
// request-level conformance suite runs through the same examples (test-utils transports); this
// suite runs each one as the separate process a newcomer starts, after the workspace build.

const root = fileURLToPath(new URL("../../", import.meta.url));
const SECRET = "whsec_example_hosts_end_to_end_secret_01";
const today = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Amsterdam",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
}).format(new Date());

interface Example {
  name: string;
  /** The fetch runtime holds no operator endpoint and runs no workers: it needs PostgreSQL and a worker. */
  needsDatabaseUrl?: boolean;
}

const examples: Example[] = [
  { name: "standalone-server" },
  { name: "express-host" },
  { name: "fastify-host" },
  { name: "azure-functions-app" },
  { name: "fetch-runtime", needsDatabaseUrl: true },
];

const cli = cliProcesses();
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  cli.killAll("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Starts an example's server; PORT 0, and webhooks may go to the test's receiver on 127.0.0.1. */
const startNode = (script: string, env: Record<string, string>) =>
  startNodeHost(script, {
    cwd: root,
    env: { PORT: "0", INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS: "1", ...env },
    children,
  });

/**
 * Sends an `Expect` other than 100-continue on a plain socket (fetch refuses the header) and
 * resolves with the answer's status line, Content-Type and body.
 */
function unmetExpectation(url: string): Promise<{ statusLine: string; contentType: string; body: string }> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let data = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => {
      data += chunk;
    });
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", body = ""] = data.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const contentType = lines
        .find((l) => /^content-type:/i.test(l))
        ?.slice("content-type:".length)
        .trim();
      resolve({ statusLine, contentType: contentType ?? "", body });
    });
    socket.write(
      `GET ${pathname}/ping HTTP/1.1\r\nHost: x\r\nExpect: x-unknown\r\nConnection: close\r\n\r\n`,
    );
  });
}

function preIncassoOrder(reference: string) {
  return {
    type: "pre-incasso",
    reference,
    debtors: [
      {
        type: "individual",
        first_name: "Jan",
        last_name: "Jansen",
        customer_number: `${reference}-K`,
        address: { street: "Teststraat", house_number: "2", postal_code: "9999 ZZ", city: "Testdorp" },
      },
    ],
    invoices: [
      { invoice_number: `${reference}-F1`, invoice_date: today, due_date: today, amount_cents: 100_000 },
    ],
  };
}

describe.each(examples)("example host $name, started as its own process", (example) => {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  const skip = example.needsDatabaseUrl === true && !databaseUrl;

  it.skipIf(skip)(
    "serves orders, creditors and control requests, delivers signed webhooks, makes the 14-day letter, lets the CLI work while it runs, and stops on SIGTERM with exit 0",
    { timeout: 120_000 },
    async () => {
      const dir = await newDataDir(`incasso-example-${example.name}-`);
      dirs.push(dir);
      const storage = example.needsDatabaseUrl
        ? ["--database-url", databaseUrl as string]
        : ["--data-dir", dir];
      const organisation = `Example ${example.name} ${Date.now()}`;
      const receiver = await startReceiver(() => 204);
      try {
        const host = await startNode(join(root, "examples", example.name, "server.mjs"), {
          ...(example.needsDatabaseUrl ? { DATABASE_URL: databaseUrl as string } : { INCASSO_DATA_DIR: dir }),
        });
        expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);

        // node answers an unmet Expect before any handler runs; every host's server is wired to
        // answer it as the reference server does (answerHttpErrors).
        const unmet = await unmetExpectation(host.url);
        expect(unmet.statusLine).toBe("HTTP/1.1 417 Expectation Failed");
        expect(unmet.contentType).toBe("application/problem+json");
        expect(JSON.parse(unmet.body)).toMatchObject({ status: 417, code: "expectation_failed" });

        // The CLI works on the data directory the running host holds (through its operator endpoint).
        const created = await cli.run([
          "keys",
          "create",
          "--organisation",
          organisation,
          "--mode",
          "live",
          "--creditor-management",
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
        // Without an IBAN no 14-day letter is made (issue 19).
        const details = await cli.run([
          "letter-details",
          "set",
          "--organisation",
          organisation,
          "--iban",
          "NL91ABNA0417164300",
          ...storage,
        ]);
        expect(details.code).toBe(0);
        // The fetch runtime runs no workers itself: a worker on the same database does.
        if (example.needsDatabaseUrl) {
          cli.start(["worker", ...storage], { INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS: "1" });
        }

        const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
        const creditor = await fetch(`${host.url}/creditors`, {
          method: "POST",
          headers: { ...headers, "idempotency-key": "creditor-1" },
          body: JSON.stringify({ reference: "CRED-1", name: "Voorbeeld Schuldeiser B.V." }),
        });
        expect(creditor.status).toBe(201);
        const listed = await fetch(`${host.url}/creditors`, { headers });
        expect(listed.status).toBe(200);

        const created201 = await fetch(`${host.url}/orders`, {
          method: "POST",
          headers: { ...headers, "idempotency-key": "order-1" },
          body: JSON.stringify(preIncassoOrder("EX-1")),
        });
        expect(created201.status).toBe(201);
        const order = (await created201.json()) as { id: string; type: string };
        expect(order.type).toBe("pre-incasso");

        const read = await fetch(`${host.url}/orders/${order.id}`, { headers });
        expect(read.status).toBe(200);
        expect(((await read.json()) as { id: string }).id).toBe(order.id);

        const held = await fetch(`${host.url}/orders/${order.id}/hold`, {
          method: "POST",
          headers,
          body: JSON.stringify({ reason: "Debtor called" }),
        });
        expect(held.status).toBe(202);

        // The 14-day letter, made off the request by the letter runner, reaches the client as a
        // signed correspondence.sent.
        const letter = await waitFor(
          () =>
            receiver.received
              .map((delivery: ReceivedDelivery) =>
                constructWebhookEvent(delivery.body, delivery.headers, SECRET),
              )
              .find((event) => event.type === "correspondence.sent"),
          "a signed correspondence.sent",
          2400,
        );
        expect(letter.type).toBe("correspondence.sent");

        host.child.kill("SIGTERM");
        expect(await exitCode(host.child)).toBe(0);
      } finally {
        await receiver.close();
      }
    },
  );
});
