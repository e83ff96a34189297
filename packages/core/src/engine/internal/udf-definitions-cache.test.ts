import { describe, expect, it } from "vitest";
import type { IncassoStore, UdfFieldRecord } from "../../store-port.js";
import { UdfDefinitionsCache } from "./udf-definitions-cache.js";

function fakeStore(lists: (UdfFieldRecord[] | Error)[]) {
  const reads: string[] = [];
  const store = {
    udfFields: {
      async list(organisationId: string) {
        reads.push(organisationId);
        const next = lists.shift() ?? [];
        if (next instanceof Error) throw next;
        return next;
      },
    },
  } as unknown as IncassoStore;
  return { store, reads };
}

const field = (name: string): UdfFieldRecord =>
  ({
    organisationId: "org_a",
    name,
    type: "text",
    createdAt: new Date(0),
    updatedAt: new Date(0),
  }) as UdfFieldRecord;

describe("UdfDefinitionsCache", () => {
  it("reads once per organisation within the time to live, and again after it", async () => {
    const { store, reads } = fakeStore([[field("project")], [field("project"), field("contract")]]);
    const cache = new UdfDefinitionsCache(store, 5000);
    expect(await cache.get("org_a", 1000)).toEqual([{ name: "project", type: "text" }]);
    expect(await cache.get("org_a", 5999)).toEqual([{ name: "project", type: "text" }]);
    expect(reads).toEqual(["org_a"]);
    expect(await cache.get("org_a", 6000)).toEqual([
      { name: "project", type: "text" },
      { name: "contract", type: "text" },
    ]);
    expect(await cache.get("org_b", 6000)).toEqual([]);
    expect(reads).toEqual(["org_a", "org_a", "org_b"]);
  });

  it("shares a read in flight and does not keep a failed one", async () => {
    const { store, reads } = fakeStore([new Error("down"), [field("project")]]);
    const cache = new UdfDefinitionsCache(store, 5000);
    const first = cache.get("org_a", 0);
    const second = cache.get("org_a", 1);
    await expect(first).rejects.toThrow("down");
    await expect(second).rejects.toThrow("down");
    expect(await cache.get("org_a", 2)).toEqual([{ name: "project", type: "text" }]);
    expect(reads).toEqual(["org_a", "org_a"]);
  });

  it("reads every time with a time to live of 0", async () => {
    const { store, reads } = fakeStore([[], [field("project")]]);
    const cache = new UdfDefinitionsCache(store, 0);
    expect(await cache.get("org_a", 0)).toEqual([]);
    expect(await cache.get("org_a", 0)).toEqual([{ name: "project", type: "text" }]);
    expect(reads).toEqual(["org_a", "org_a"]);
  });
});
