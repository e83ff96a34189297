import { issueApiKey } from "@incasso/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type SqlStore } from "../index.js";

// When a key was last used (migration 3, decision keys-last-used): recorded to the minute, and not
// again within a minute of the last record, whichever process writes.
describe("the last use of an API key", () => {
  let store: SqlStore;
  beforeAll(async () => {
    store = await openStore();
  });
  afterAll(async () => {
    await store.close();
  });

  it("is null until used, then the minute of the first use, kept for a minute, then moved on", async () => {
    const { record } = await issueApiKey(store, { organisation: "Last Used BV", mode: "test" });
    expect(record.lastUsedAt).toBeNull();
    const markUsed = store.apiKeys.markUsed?.bind(store.apiKeys);
    expect(markUsed).toBeTypeOf("function");
    const last = async () => (await store.apiKeys.findById(record.id))?.lastUsedAt?.toISOString() ?? null;
    await markUsed?.(record.id, new Date("2026-11-25T10:00:42.500Z"));
    expect(await last()).toBe("2026-11-25T10:00:00.000Z");
    // 59 seconds after the record: not written again.
    await markUsed?.(record.id, new Date("2026-11-25T10:00:59.999Z"));
    await markUsed?.(record.id, new Date("2026-11-25T10:00:59.000Z"));
    expect(await last()).toBe("2026-11-25T10:00:00.000Z");
    await markUsed?.(record.id, new Date("2026-11-25T10:01:00.000Z"));
    expect(await last()).toBe("2026-11-25T10:01:00.000Z");
    await markUsed?.(record.id, new Date("2026-11-25T10:07:31.000Z"));
    expect(await last()).toBe("2026-11-25T10:07:00.000Z");
    expect((await store.apiKeys.list()).find((k) => k.id === record.id)?.lastUsedAt?.toISOString()).toBe(
      "2026-11-25T10:07:00.000Z",
    );
  });
});
