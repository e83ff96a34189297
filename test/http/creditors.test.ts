import type { IncassoStore } from "@incasso/core";
import {
  type FixtureKeys,
  fixtureApi,
  fixtureKeys,
  fixtureStore,
  type RunningTransport,
  responseValidator,
  transports,
} from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let store: IncassoStore;
let api: ReturnType<typeof fixtureApi>;
let check: ReturnType<typeof responseValidator>;
beforeAll(async () => {
  store = await fixtureStore();
  api = fixtureApi({ store });
  check = responseValidator(api.openapi());
});
afterAll(() => store.close());

const post = (key: string, body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
  body: typeof body === "string" ? body : JSON.stringify(body),
});
const get = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

describe.each(transports)("creditor management over $name", (transport) => {
  let t: RunningTransport;
  let keys: FixtureKeys;
  beforeAll(async () => {
    t = await transport.start(api);
    keys = await fixtureKeys(store, `creditors ${transport.name}`);
  });
  afterAll(() => t.close());

  it("POST /creditors creates a creditor: 201 with the Creditor shape and rate-limit headers", async () => {
    const res = await t.request(
      "/creditors",
      post(keys.live, { reference: " ACME-1 ", name: "Acme Holding BV" }),
    );
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("ratelimit-limit")).toBe("120");
    expect(res.headers.get("ratelimit-reset")).toBe("60");
    const body = await res.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^cred_[0-9a-f]{16}$/),
      object: "creditor",
      reference: "ACME-1",
      name: "Acme Holding BV",
      created_at: "2026-11-21T10:00:00.000Z",
    });
    check("/creditors", "post", 201, body);
  });

  it("a duplicate reference → 409 creditor_exists", async () => {
    await t.request("/creditors", post(keys.live, { reference: "DUP", name: "First" }));
    const res = await t.request("/creditors", post(keys.live, { reference: "DUP", name: "Second" }));
    expect(res.status).toBe(409);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      status: 409,
      code: "creditor_exists",
      type: "https://incasso.dev/problems/creditor_exists",
    });
    expect(body.detail).toBe('A creditor with reference "DUP" already exists in this account.');
    check("/creditors", "post", 409, body);
  });

  it("the same reference in another organisation is a different creditor", async () => {
    const res = await t.request(
      "/creditors",
      post(keys.other, { reference: "ACME-1", name: "Someone else" }),
    );
    expect(res.status).toBe(201);
  });

  it("GET /creditors lists the organisation's creditors only, oldest first, with paging", async () => {
    const res = await t.request("/creditors", get(keys.live));
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      data: { reference: string }[];
      has_more: boolean;
      next_cursor: null;
    };
    check("/creditors", "get", 200, body);
    // The fixture's clock is fixed, so both share created_at and the id decides their order.
    const all = body.data.map((c) => c.reference);
    expect([...all].sort()).toEqual(["ACME-1", "DUP"]);
    expect(body).toMatchObject({ object: "list", has_more: false, next_cursor: null });
    const page1 = (await (await t.request("/creditors?limit=1", get(keys.live))).json()) as {
      data: { reference: string }[];
      has_more: boolean;
      next_cursor: string;
    };
    expect(page1.data.map((c) => c.reference)).toEqual([all[0]]);
    expect(page1.has_more).toBe(true);
    const page2 = (await (
      await t.request(`/creditors?limit=1&cursor=${page1.next_cursor}`, get(keys.live))
    ).json()) as { data: { reference: string }[]; has_more: boolean };
    expect(page2.data.map((c) => c.reference)).toEqual([all[1]]);
    expect(page2.has_more).toBe(false);
  });

  it("bad paging input → 422 with the field named", async () => {
    const res = await t.request("/creditors?limit=0", get(keys.live));
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual([
      "limit",
    ]);
    const bad = await t.request("/creditors?cursor=xyz", get(keys.live));
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({
      code: "validation_error",
      errors: [{ field: "cursor", code: "invalid_cursor" }],
    });
  });

  it("both operations → 403 creditor_feature_disabled when the key's switch is off, before the body is read", async () => {
    const list = await t.request("/creditors", get(keys.test));
    expect(list.status).toBe(403);
    expect(list.headers.get("ratelimit-limit")).toBe("120");
    const body = await list.json();
    expect(body).toMatchObject({ status: 403, code: "creditor_feature_disabled" });
    check("/creditors", "get", 403, body);
    const create = await t.request("/creditors", post(keys.test, "{not json"));
    expect(create.status).toBe(403);
    expect(await create.json()).toMatchObject({ code: "creditor_feature_disabled" });
  });

  it("invalid bodies → 400 / 415 / 422 with every field", async () => {
    expect((await t.request("/creditors", post(keys.live, "{"))).status).toBe(400);
    const wrongType = await t.request("/creditors", {
      ...post(keys.live, "{}"),
      headers: { authorization: `Bearer ${keys.live}`, "content-type": "text/plain" },
    });
    expect(wrongType.status).toBe(415);
    const res = await t.request("/creditors", post(keys.live, { reference: "", name: "x".repeat(201) }));
    expect(res.status).toBe(422);
    const body = (await res.json()) as { errors: { field: string; code: string }[] };
    expect(body.errors.map((e) => [e.field, e.code])).toEqual([
      ["reference", "required"],
      ["name", "too_long"],
    ]);
    const control = await t.request("/creditors", post(keys.live, { reference: "A\u0007B", name: "N" }));
    expect(control.status).toBe(422);
    // An unpaired surrogate is valid JSON but no text the database can hold: refused on each field.
    const lone = await t.request(
      "/creditors",
      post(keys.live, { reference: "LONE-\ud800", name: "\udc00N" }),
    );
    expect(lone.status).toBe(422);
    expect(((await lone.json()) as { errors: { field: string; code: string }[] }).errors).toEqual([
      { field: "reference", code: "invalid_character", message: expect.stringContaining("surrogate") },
      { field: "name", code: "invalid_character", message: expect.stringContaining("surrogate") },
    ]);
  });

  it("POST /creditors honours Idempotency-Key: a replay returns the same creditor", async () => {
    const headers = { "idempotency-key": `cred-${transport.name}` };
    const first = await t.request(
      "/creditors",
      post(keys.live, { reference: "IDEM", name: "Idem BV" }, headers),
    );
    expect(first.status).toBe(201);
    const again = await t.request(
      "/creditors",
      post(keys.live, { name: "Idem BV", reference: "IDEM" }, headers),
    );
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(await again.text()).toBe(await first.text());
  });
});
