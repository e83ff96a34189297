import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { newDataDir } from "@incasso/test-utils";
import { verifyWebhook } from "@incasso/webhook-signing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIncasso, type Incasso } from "./create-incasso.js";

const KEY_1 = randomBytes(32).toString("base64");
const KEY_2 = randomBytes(32).toString("base64");
const SECRET = "whsec_operator-given-secret-0123456789";

interface Line {
  level: "info" | "warn" | "error";
  message: string;
}

function capture() {
  const lines: Line[] = [];
  const logger = {
    info: (message: string) => lines.push({ level: "info", message }),
    warn: (message: string) => lines.push({ level: "warn", message }),
    error: (message: string) => lines.push({ level: "error", message }),
  };
  return { lines, logger, secrets: () => lines.filter((l) => l.message.startsWith("secrets: ")) };
}

describe("webhook secrets at rest in the composed service", () => {
  let dir: string;
  const received: { body: string; headers: IncomingHttpHeaders }[] = [];
  let receiver: Server;
  let url: string;

  beforeAll(async () => {
    // A copy of a fresh cluster (newDataDir): initdb is most of a new directory's cost.
    dir = await newDataDir("incasso-secrets-");
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({ body: Buffer.concat(chunks).toString("utf8"), headers: req.headers });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(env: Record<string, string>, logger: ReturnType<typeof capture>["logger"]) {
    return createIncasso(
      { dataDir: dir },
      {
        startLines: false,
        logger,
        env,
        letters: false,
        operatorEndpoint: false,
        webhooks: { allowPrivateTargets: true },
      },
    );
  }

  async function rawRow(incasso: Incasso) {
    const { rows } = await incasso.store.database.query<{ secret: string; secret_key_id: string | null }>(
      "SELECT secret, secret_key_id FROM webhook_endpoints",
    );
    return rows;
  }

  /** Pings the organisation and verifies the delivery's signature with the secret the client holds. */
  async function pingVerifies(incasso: Incasso): Promise<void> {
    const before = received.length;
    const sent = await incasso.operations.pingWebhook({ organisation: "Secrets BV" });
    expect(sent.attempt?.outcome).toBe("delivered");
    const delivery = received[before];
    expect(received.length).toBe(before + 1);
    const verified = verifyWebhook(
      delivery?.body as string,
      delivery?.headers as Record<string, string>,
      SECRET,
    );
    expect(verified.eventType).toBe("ping");
  }

  it("without a key: says so once at the start, and stores the secret as given", {
    timeout: 60_000,
  }, async () => {
    const log = capture();
    const incasso = await open({}, log.logger);
    try {
      expect(log.secrets()).toEqual([
        {
          level: "warn",
          message:
            "secrets: INCASSO_SECRET_KEY is not set; webhook signing secrets are stored unencrypted (docs/operator.md, Secrets at rest)",
        },
      ]);
      await incasso.operations.createKey({ organisation: "Secrets BV", mode: "test" });
      await incasso.operations.setWebhook({ organisation: "Secrets BV", url, secret: SECRET });
      expect(await rawRow(incasso)).toEqual([{ secret: SECRET, secret_key_id: null }]);
      await pingVerifies(incasso);
    } finally {
      await incasso.stop();
    }
  });

  it("with a key: names the rows left unencrypted, rotate encrypts them, signatures still verify", {
    timeout: 60_000,
  }, async () => {
    const log = capture();
    const incasso = await open({ INCASSO_SECRET_KEY: `k1:${KEY_1}` }, log.logger);
    try {
      expect(log.secrets()).toEqual([
        {
          level: "warn",
          message: "secrets: 1 webhook secret is still stored unencrypted; run incasso secrets rotate",
        },
      ]);
      expect(await incasso.operations.secretsStatus()).toEqual({
        key_id: "k1",
        total: 1,
        plain: 1,
        byKeyId: {},
        unknownKeyIds: [],
      });
      // The plain row still signs before the rotation.
      await pingVerifies(incasso);
      expect(await incasso.operations.rotateSecrets()).toEqual({ keyId: "k1", rotated: 1, current: 0 });
      const [row] = await rawRow(incasso);
      expect(row?.secret_key_id).toBe("k1");
      expect(row?.secret).not.toContain("operator-given");
      expect(row?.secret).not.toBe(SECRET);
      await pingVerifies(incasso);
    } finally {
      await incasso.stop();
    }
  });

  it("rotating to a new key keeps every signature valid, and the old key can go after", {
    timeout: 60_000,
  }, async () => {
    const log = capture();
    const both = await open({ INCASSO_SECRET_KEY: `k2:${KEY_2},k1:${KEY_1}` }, log.logger);
    try {
      expect(log.secrets()).toEqual([]);
      await pingVerifies(both);
      expect(await both.operations.rotateSecrets()).toEqual({ keyId: "k2", rotated: 1, current: 0 });
      expect((await rawRow(both))[0]?.secret_key_id).toBe("k2");
      await pingVerifies(both);
    } finally {
      await both.stop();
    }
    const onlyNew = await open({ INCASSO_SECRET_KEY: `k2:${KEY_2}` }, capture().logger);
    try {
      await pingVerifies(onlyNew);
    } finally {
      await onlyNew.stop();
    }
  });

  it("a wrong or missing key is a clear error at the start and on use, never a crash", {
    timeout: 60_000,
  }, async () => {
    const log = capture();
    const other = await open({ INCASSO_SECRET_KEY: `k3:${KEY_1}` }, log.logger);
    try {
      expect(log.secrets()).toEqual([
        {
          level: "error",
          message:
            "secrets: webhook secrets are encrypted with key id k2, which INCASSO_SECRET_KEY does not hold; their events cannot be signed until the key is added",
        },
      ]);
      await expect(other.operations.pingWebhook({ organisation: "Secrets BV" })).rejects.toThrow(
        "A webhook secret is encrypted with key id k2, which INCASSO_SECRET_KEY does not hold (it has k3).",
      );
      // The API itself is unaffected.
      expect((await other.api.fetch(new Request("http://x/api/v1/orders"))).status).toBe(401);
    } finally {
      await other.stop();
    }
    const wrong = await open({ INCASSO_SECRET_KEY: `k2:${KEY_1}` }, capture().logger);
    try {
      await expect(wrong.operations.pingWebhook({ organisation: "Secrets BV" })).rejects.toThrow(
        "A webhook secret does not open with key id k2: INCASSO_SECRET_KEY has another key under that id, or the row is damaged.",
      );
      // An event due for that organisation fails its attempt with the reason, and stays scheduled.
      const { rows } = await wrong.store.database.query<{ organisation_id: string }>(
        "SELECT organisation_id FROM webhook_endpoints",
      );
      const event = await wrong.store.outbox.enqueue({
        organisationId: rows[0]?.organisation_id as string,
        type: "ping",
        data: { order_id: null, case_number: null, reference: null, case_event: null },
        now: new Date(),
      });
      const attempt = await wrong.dispatcher?.deliverNow(event.id);
      expect(attempt?.result).toEqual({
        outcome: "failed",
        statusCode: null,
        durationMs: 0,
        failure: "secret_unavailable",
        error:
          "secret_unavailable: A webhook secret does not open with key id k2: INCASSO_SECRET_KEY has another key under that id, or the row is damaged.",
      });
      expect(attempt?.nextAttemptAt).not.toBeNull();
    } finally {
      await wrong.stop();
    }
    await expect(open({ INCASSO_SECRET_KEY: "k2:short" }, capture().logger)).rejects.toThrow(
      "INCASSO_SECRET_KEY entry 1 is not base64 of 32 bytes (make one with: openssl rand -base64 32).",
    );
  });
});
