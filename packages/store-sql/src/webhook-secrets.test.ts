import { randomBytes } from "node:crypto";
import { newId } from "@incasso/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  isSecretKeyError,
  openStore,
  parseSecretKeyring,
  repositories,
  rotateWebhookSecrets,
  type SqlStore,
  webhookSecretsStatus,
} from "./index.js";

const T0 = new Date("2026-11-25T10:00:00.000Z");
const KEY_1 = randomBytes(32).toString("base64");
const KEY_2 = randomBytes(32).toString("base64");
const SECRET = "whsec_plain-text-that-must-not-be-stored";

async function errorOf(fn: () => unknown): Promise<{ code: string; message: string }> {
  try {
    await fn();
  } catch (error) {
    if (isSecretKeyError(error)) return { code: error.code, message: error.message };
    return { code: `unexpected: ${String(error)}`, message: "" };
  }
  return { code: "no error", message: "" };
}

describe("parseSecretKeyring", () => {
  it("takes one bare key, named by its fingerprint", () => {
    const ring = parseSecretKeyring(KEY_1);
    expect(ring.currentKeyId).toMatch(/^[0-9a-f]{8}$/);
    expect(parseSecretKeyring(` ${KEY_1} `).currentKeyId).toBe(ring.currentKeyId);
  });

  it("takes id:key entries; the first seals, all open", () => {
    const ring = parseSecretKeyring(`k2:${KEY_2}, k1:${KEY_1}`);
    expect(ring.currentKeyId).toBe("k2");
    expect(ring.keyIds).toEqual(["k2", "k1"]);
    const old = parseSecretKeyring(`k1:${KEY_1}`).seal("s3cret", "ctx");
    expect(old.keyId).toBe("k1");
    expect(ring.open(old, "ctx")).toBe("s3cret");
  });

  it("accepts the URL-safe alphabet", () => {
    const key = randomBytes(32).toString("base64url");
    expect(parseSecretKeyring(`a:${key}`).currentKeyId).toBe("a");
  });

  it.each([
    ["", "INCASSO_SECRET_KEY is empty."],
    [
      "c2hvcnQ=",
      "INCASSO_SECRET_KEY entry 1 is not base64 of 32 bytes (make one with: openssl rand -base64 32).",
    ],
    [
      `k1:${KEY_1},k2:not base64`,
      "INCASSO_SECRET_KEY entry 2 is not base64 of 32 bytes (make one with: openssl rand -base64 32).",
    ],
    [`bad id:${KEY_1}`, "INCASSO_SECRET_KEY entry 1 has an id that is not 1 to 32 of A-Z a-z 0-9 _ -."],
    [`k1:${KEY_1},k1:${KEY_2}`, "INCASSO_SECRET_KEY names key id k1 twice."],
  ])("refuses %j with a message that holds no key", async (value, message) => {
    const error = await errorOf(() => parseSecretKeyring(value));
    expect(error).toEqual({ code: "secret_key_invalid", message });
    expect(error.message).not.toContain(KEY_2);
  });

  it("binds a sealed secret to its context and never repeats a nonce", () => {
    const ring = parseSecretKeyring(`k1:${KEY_1}`);
    const a = ring.seal("same", "webhook_endpoints:org_a");
    expect(ring.seal("same", "webhook_endpoints:org_a").value).not.toBe(a.value);
    expect(() => ring.open(a, "webhook_endpoints:org_b")).toThrow(
      "A webhook secret does not open with key id k1: INCASSO_SECRET_KEY has another key under that id, or the row is damaged.",
    );
  });
});

describe("webhook secrets at rest (PGlite)", () => {
  let store: SqlStore;
  beforeAll(async () => {
    store = await openStore({ secretKey: `k1:${KEY_1}` });
  });
  afterAll(async () => {
    await store.close();
  });

  async function organisation(): Promise<string> {
    const { organisation } = await store.organisations.ensure({
      id: newId("org"),
      name: `Secrets ${randomBytes(4).toString("hex")}`,
      creditorName: "Creditor BV",
      now: T0,
    });
    return organisation.id;
  }

  async function rawRows() {
    const { rows } = await store.database.query<{
      organisation_id: string;
      secret: string;
      secret_key_id: string | null;
    }>("SELECT organisation_id, secret, secret_key_id FROM webhook_endpoints ORDER BY organisation_id");
    return rows;
  }

  it("stores the secret encrypted under the current key id and reads it back", async () => {
    const org = await organisation();
    const set = await store.webhookEndpoints.set({
      organisationId: org,
      url: "https://client.example/h",
      secret: SECRET,
      now: T0,
    });
    expect(set.secret).toBe(SECRET);
    expect((await store.webhookEndpoints.find(org))?.secret).toBe(SECRET);
    const row = (await rawRows()).find((r) => r.organisation_id === org);
    expect(row?.secret_key_id).toBe("k1");
    expect(row?.secret).not.toContain("plain-text");
    // nonce (12) + 40 bytes of secret + tag (16), base64url
    expect(row?.secret).toMatch(/^[A-Za-z0-9_-]{91}$/);
    const { rows } = await store.database.query<{ n: number | string }>(
      "SELECT count(*) AS n FROM webhook_endpoints WHERE secret LIKE '%plain-text%'",
    );
    expect(Number(rows[0]?.n)).toBe(0);
  });

  it("reads a row stored as given, and the claim opens encrypted ones", async () => {
    const plainOrg = await organisation();
    await repositories(store.database).webhookEndpoints.set({
      organisationId: plainOrg,
      url: "https://client.example/p",
      secret: "whsec_stored_as_given_1",
      now: T0,
    });
    expect((await store.webhookEndpoints.find(plainOrg))?.secret).toBe("whsec_stored_as_given_1");
    const event = await store.outbox.enqueue({
      organisationId: plainOrg,
      type: "case.updated",
      data: {
        order_id: "ord_0123456789abcdef",
        case_number: "2026-000001",
        reference: "R",
        case_event: "case_payments",
      },
      now: T0,
    });
    const [claimed] = await store.outbox.claim({
      owner: "t",
      now: T0,
      leaseSeconds: 60,
      limit: 1,
      maxAttempts: 8,
      eventId: event.id,
    });
    expect(claimed?.endpoint?.secret).toBe("whsec_stored_as_given_1");
  });

  it("counts secrets by key id and rotates every one to the new key, all readable after", async () => {
    const before = await webhookSecretsStatus(store.database, parseSecretKeyring(`k1:${KEY_1}`));
    expect(before.plain).toBeGreaterThan(0);
    expect(before.byKeyId.k1).toBeGreaterThan(0);
    expect(before.unknownKeyIds).toEqual([]);
    const plainBefore = new Map<string, string>();
    for (const e of await store.webhookEndpoints.list()) plainBefore.set(e.organisationId, e.secret);

    const ring = parseSecretKeyring(`k2:${KEY_2},k1:${KEY_1}`);
    const rotation = await rotateWebhookSecrets(store.database, ring);
    expect(rotation).toEqual({ keyId: "k2", rotated: before.total, current: 0 });
    expect(await rotateWebhookSecrets(store.database, ring)).toEqual({
      keyId: "k2",
      rotated: 0,
      current: before.total,
    });
    expect((await rawRows()).map((r) => r.secret_key_id)).toEqual(Array(before.total).fill("k2"));

    // Only the new key is needed now.
    const onlyNew = repositories(store.database, parseSecretKeyring(`k2:${KEY_2}`));
    for (const e of await onlyNew.webhookEndpoints.list())
      expect(e.secret).toBe(plainBefore.get(e.organisationId));
    // The store opened with the old key alone reports the new id as unknown, and says so on reading.
    expect((await store.webhookSecretsStatus()).unknownKeyIds).toEqual(["k2"]);
    const org = [...plainBefore.keys()][0] as string;
    expect(await errorOf(() => store.webhookEndpoints.find(org))).toEqual({
      code: "secret_key_missing",
      message:
        "A webhook secret is encrypted with key id k2, which INCASSO_SECRET_KEY does not hold (it has k1).",
    });
  });

  it("a wrong key under the right id, or no key, gives a clear error and changes nothing", async () => {
    const wrong = parseSecretKeyring(`k2:${KEY_1}`);
    const org = (await rawRows())[0]?.organisation_id as string;
    expect(await errorOf(() => repositories(store.database, wrong).webhookEndpoints.find(org))).toEqual({
      code: "secret_undecryptable",
      message:
        "A webhook secret does not open with key id k2: INCASSO_SECRET_KEY has another key under that id, or the row is damaged.",
    });
    // A claim carries the reason instead of failing for every organisation in it.
    const event = await store.outbox.enqueue({
      organisationId: org,
      type: "ping",
      data: { order_id: null, case_number: null, reference: null, case_event: null },
      now: T0,
    });
    const [claimed] = await repositories(store.database, wrong).outbox.claim({
      owner: "t",
      now: T0,
      leaseSeconds: 60,
      limit: 1,
      maxAttempts: 8,
      eventId: event.id,
    });
    expect({ endpoint: claimed?.endpoint, endpointError: claimed?.endpointError }).toEqual({
      endpoint: undefined,
      endpointError:
        "A webhook secret does not open with key id k2: INCASSO_SECRET_KEY has another key under that id, or the row is damaged.",
    });
    const rows = await rawRows();
    expect(
      (
        await errorOf(() =>
          rotateWebhookSecrets(store.database, parseSecretKeyring(`k3:${KEY_2},k2:${KEY_1}`)),
        )
      ).code,
    ).toBe("secret_undecryptable");
    expect(await rawRows()).toEqual(rows);
    expect(await errorOf(() => repositories(store.database).webhookEndpoints.find(org))).toEqual({
      code: "secret_key_missing",
      message: "A webhook secret is encrypted with key id k2, and INCASSO_SECRET_KEY is not set.",
    });
    expect(await errorOf(() => rotateWebhookSecrets(store.database, undefined))).toEqual({
      code: "secret_key_missing",
      message: "INCASSO_SECRET_KEY is not set: there is no key to encrypt the webhook secrets with.",
    });
  });

  it("refuses to open with a malformed key, before touching the database", async () => {
    expect(await errorOf(() => openStore({ secretKey: "nope" }))).toEqual({
      code: "secret_key_invalid",
      message:
        "INCASSO_SECRET_KEY entry 1 is not base64 of 32 bytes (make one with: openssl rand -base64 32).",
    });
  });
});
