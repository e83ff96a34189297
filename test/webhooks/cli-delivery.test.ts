import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { cliProcesses, newDataDir } from "@incasso/test-utils";
import { constructWebhookEvent } from "@incasso/webhook-signing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReceivedDelivery, startReceiver } from "./receiver.js";

// The reference server as an operator runs it (`incasso serve` on an embedded data directory) and
// the webhook commands reaching it through its operator endpoint, then working on the directory
// directly once it is stopped. 127.0.0.1 only; private targets allowed for the local receiver.
const cli = cliProcesses();
const { start } = cli;
let dir = "";
beforeAll(async () => {
  dir = await newDataDir("incasso-webhooks-");
});
afterAll(() => {
  cli.killAll("SIGKILL");
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[]) => cli.run([...args, "--data-dir", dir]);

function serve(): Promise<{ proc: ChildProcess; out: () => string }> {
  const proc = start(["serve", "--port", "0", "--data-dir", dir, "--allow-private-webhook-targets"]);
  let out = "";
  return new Promise((resolve, reject) => {
    proc.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('"msg":"data: ')) resolve({ proc, out: () => out });
    });
    proc.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

async function stop(proc: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  proc.kill("SIGTERM");
  await exited;
}

describe("webhook delivery through the reference server and the CLI", () => {
  it("registers an endpoint, pings it, shows the deliveries, survives a restart and redelivers", {
    timeout: 120_000,
  }, async () => {
    let up = true;
    const receiver = await startReceiver(() => (up ? 204 : 500));
    try {
      const server = await serve();
      // The start lines are structured log lines (decision operations-logs).
      const messages = server
        .out()
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { msg: string }).msg);
      expect(messages).toContain("webhooks: delivered by this server (6 attempts); private targets allowed");
      expect(messages).toContain("letters: 14-day letters of pre-incasso orders made by this server");
      expect((await run(["keys", "create", "--organisation", "Acme BV", "--mode", "live"])).code).toBe(0);

      const set = await run([
        "webhooks",
        "set",
        "--organisation",
        "Acme BV",
        "--url",
        receiver.url,
        "--json",
      ]);
      expect(set.code).toBe(0);
      const endpoint = JSON.parse(set.out) as Record<string, unknown>;
      const secret = String(endpoint.secret);
      expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      expect(endpoint).toMatchObject({
        organisation: "Acme BV",
        url: receiver.url,
        secret_hint: `${secret.slice(0, 6)}…${secret.slice(-4)}`,
        secret_generated: true,
      });
      const list = await run(["webhooks", "list"]);
      expect(list.out).toMatch(
        new RegExp(`^Acme BV  ${receiver.url}  whsec_…${secret.slice(-4)}  updated \\S+\\n$`),
      );
      expect(list.out).not.toContain(secret);

      // ping: enqueued and sent at once by the running server; verified as a client would.
      const ping = await run(["webhooks", "ping", "--organisation", "Acme BV"]);
      expect(ping.code).toBe(0);
      const pingId =
        /^Ping (evt_[0-9a-f]{16}): attempt 1 at \S+ by dsp_[0-9a-f]{12} to (\S+): delivered \(HTTP 204 in \d+ ms\)\.\n$/.exec(
          ping.out,
        );
      expect(pingId?.[2]).toBe(receiver.url);
      expect(receiver.received.length).toBe(1);
      const got = receiver.received[0] as ReceivedDelivery;
      const event = constructWebhookEvent(got.body, got.headers, secret);
      expect(event).toEqual({
        id: pingId?.[1],
        object: "event",
        type: "ping",
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        data: { order_id: null, case_number: null, reference: null, case_event: null },
      });
      expect(got.headers["x-service-event"]).toBe("ping");

      // The receiver goes down: the attempt fails, is recorded, and the next one is scheduled.
      up = false;
      const failing = await run(["webhooks", "ping", "--organisation", "Acme BV", "--json"]);
      expect(failing.code).toBe(1);
      const failed = JSON.parse(failing.out) as {
        event: { event_id: string; state: string; attempts: number };
        attempt: Record<string, unknown>;
      };
      expect(failed.event).toMatchObject({ state: "pending", attempts: 1 });
      expect(failed.attempt).toMatchObject({
        attempt: 1,
        outcome: "failed",
        status_code: 500,
        error: "http_status: HTTP 500",
      });
      const due =
        Date.parse(String(failed.attempt.next_attempt_at)) - Date.parse(String(failed.attempt.finished_at));
      expect(due).toBe(60_000);

      const attempts = await run(["webhooks", "deliveries", "--event", failed.event.event_id]);
      expect(attempts.out).toMatch(
        /^attempt 1 at \S+ by dsp_[0-9a-f]{12} to \S+: failed \(http_status: HTTP 500\); next attempt at \S+\n$/,
      );
      const unknown = await run(["webhooks", "redeliver", "evt_ffffffffffffffff"]);
      expect(unknown).toMatchObject({ code: 3, err: "incasso: No event evt_ffffffffffffffff.\n" });
      const bad = await run(["webhooks", "set", "--organisation", "Acme BV", "--url", "ftp://x.example/"]);
      expect(bad.err).toBe(
        'incasso: The webhook URL "ftp://x.example/" must start with https:// or http://.\n',
      );

      // The server stops; the events are still there when the directory is opened again.
      await stop(server.proc);
      const deliveries = await run(["webhooks", "deliveries", "--json"]);
      const rows = JSON.parse(deliveries.out) as { event_id: string; state: string; type: string }[];
      expect(rows.map((r) => [r.event_id, r.type, r.state])).toEqual([
        [failed.event.event_id, "ping", "pending"],
        [pingId?.[1], "ping", "delivered"],
      ]);

      // Redelivered directly on the data directory (no server now), once the receiver is back.
      up = true;
      const again = await run([
        "webhooks",
        "redeliver",
        failed.event.event_id,
        "--allow-private-webhook-targets",
      ]);
      expect(again.code).toBe(0);
      expect(again.out).toMatch(
        new RegExp(
          `^Redelivery of ${failed.event.event_id}: attempt 2 at \\S+ by dsp_[0-9a-f]{12} to \\S+: delivered \\(HTTP 204 in \\d+ ms\\)\\.\\n$`,
        ),
      );
      const redelivered = receiver.received.at(-1) as ReceivedDelivery;
      expect(constructWebhookEvent(redelivered.body, redelivered.headers, secret).id).toBe(
        failed.event.event_id,
      );
    } finally {
      await receiver.close();
    }
  });
});
