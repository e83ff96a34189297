import { issueApiKey } from "@incasso/core";
import { authenticateKey } from "@incasso/server/internal";
import { openStore, type SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directOperations } from "./operations.js";

describe("directOperations", () => {
  let store: SqlStore;
  beforeAll(async () => {
    store = await openStore();
  });
  afterAll(async () => {
    await store.close();
  });

  it("a revocation through the operator operations of this process takes effect at once", async () => {
    const { key, record } = await issueApiKey(store, { organisation: "Cache Two", mode: "test" });
    expect((await authenticateKey(store, key))?.keyId).toBe(record.id);
    const summary = await directOperations(store).revokeKey(record.id);
    expect(summary.revoked_at).not.toBeNull();
    expect(await authenticateKey(store, key)).toBeUndefined();
  });
});
