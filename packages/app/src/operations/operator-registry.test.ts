import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationCommands } from "../cli/operation-commands.js";
import { directOperations } from "./operations.js";
import { readOperatorEndpoint, remoteOperations } from "./operator-client.js";
import { type OperatorEndpoint, startOperatorEndpoint } from "./operator-endpoint.js";
import { OPERATOR_OPERATIONS, operationEntry, operationNamed } from "./operator-registry.js";

describe("the operator operations table", () => {
  it("names every operation once, in the form the endpoint's path takes", () => {
    const names = Object.values(OPERATOR_OPERATIONS).map((op) => op.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z-]+$/);
    expect(operationNamed("close-case")).toBe("closeCase");
    // A name is looked up in a map, never on an object's prototype.
    expect(operationNamed("constructor")).toBeUndefined();
    expect(operationNamed("toString")).toBeUndefined();
  });

  it("turns a method's arguments into the input and back", () => {
    const revoke = operationEntry("revokeKey");
    expect(revoke.params("key_0123456789abcdef")).toEqual({ id: "key_0123456789abcdef" });
    expect(revoke.args({ id: "key_0123456789abcdef" })).toEqual(["key_0123456789abcdef"]);
    expect(operationEntry("listKeys").params()).toEqual({});
    expect(operationEntry("listKeys").args({})).toEqual([]);
    const close = operationEntry("closeCase");
    expect(close.params({ case_number: "2026-000001" })).toEqual({ case_number: "2026-000001" });
    expect(close.args({ case_number: "2026-000001" })).toEqual([{ case_number: "2026-000001" }]);
  });

  it("makes one command per command name, in the table's order, with --json and the storage flags", () => {
    const webhooks = operationCommands("webhooks");
    expect(webhooks.map((c) => c.name)).toEqual(["set", "list", "ping", "deliveries", "redeliver"]);
    // Two operations share `deliveries`; its help is the one without a condition.
    const deliveries = webhooks[3];
    expect(deliveries?.summary).toBe("events and their delivery state; --event shows its attempts");
    expect(deliveries?.flags.map((f) => f.name)).toEqual([
      "failed",
      "organisation",
      "limit",
      "event",
      "json",
      "data-dir",
      "database-url",
    ]);
    expect(operationCommands(undefined, "migrate").map((c) => c.name)).toEqual(["migrate"]);
    expect(operationCommands("tasks").map((c) => [c.name, c.args])).toEqual([
      ["list", undefined],
      ["done", ["<id>"]],
      ["reject", ["<id>"]],
    ]);
  });

  it("holds the operators and letter details operations with their endpoint names and commands", async () => {
    expect(
      ["createOperator", "listOperators", "revokeOperator", "setLetterDetails", "showLetterDetails"].map(
        (method) => operationEntry(method as never).name,
      ),
    ).toEqual([
      "create-operator",
      "list-operators",
      "revoke-operator",
      "set-letter-details",
      "show-letter-details",
    ]);
    expect(operationNamed("revoke-operator")).toBe("revokeOperator");
    // revokeOperator takes its input as an object, as before the table; listOperators takes none.
    expect(operationEntry("revokeOperator").params({ id: "op_0123456789abcdef" })).toEqual({
      id: "op_0123456789abcdef",
    });
    expect(operationEntry("listOperators").params()).toEqual({});
    expect(operationCommands("operators").map((c) => [c.name, c.args, c.flags.map((f) => f.name)])).toEqual([
      ["create", undefined, ["name", "role", "json", "data-dir", "database-url"]],
      ["list", undefined, ["json", "data-dir", "database-url"]],
      ["revoke", ["<id>"], ["json", "data-dir", "database-url"]],
    ]);
    const [set, show] = operationCommands("letter-details");
    expect(set?.flags.map((f) => f.name)).toEqual([
      "organisation",
      "sender-name",
      "street",
      "postal-code",
      "city",
      "iban",
      "bic",
      "kvk-number",
      "phone",
      "email",
      "json",
      "data-dir",
      "database-url",
    ]);
    expect(show?.flags.map((f) => f.name)).toEqual(["organisation", "json", "data-dir", "database-url"]);
    // The IBAN is checked before anything opens: a usage error naming the flag (exit code 2).
    const cli = operationEntry("setLetterDetails").cli;
    await expect(
      Promise.resolve().then(() => cli?.input({ organisation: "Acme BV", iban: "NL91ABNA0417164301" }, [])),
    ).rejects.toMatchObject({
      isIncassoUsageError: true,
      code: "validation_error",
      message:
        "--iban: NL91ABNA0417164301 is not a valid IBAN: its check digits do not match (ISO 13616 mod-97).",
    });
    expect(await cli?.input({ organisation: "Acme BV", iban: "", city: "Utrecht" }, [])).toEqual({
      organisation: "Acme BV",
      details: { city: "Utrecht", iban: null },
    });
  });
});

describe("the operator endpoint, served from the table", () => {
  let store: SqlStore;
  let endpoint: OperatorEndpoint;
  let dir: string;
  beforeAll(async () => {
    store = await openStore();
    dir = mkdtempSync(join(tmpdir(), "incasso-operator-"));
    endpoint = await startOperatorEndpoint({ operations: directOperations(store), dataDir: dir });
  });
  afterAll(async () => {
    await endpoint.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = async (op: string, body: unknown) => {
    const info = readOperatorEndpoint(dir);
    const res = await fetch(`${info?.url}/operator/${op}`, {
      method: "POST",
      headers: { authorization: `Bearer ${info?.token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };

  it("answers the remote call as the direct call does, with positional methods", async () => {
    const info = readOperatorEndpoint(dir);
    if (info === undefined) throw new Error("no operator.json");
    const remote = remoteOperations(info);
    const created = await remote.createKey({ organisation: "Table BV", mode: "test" });
    expect(created.organisation_created).toBe(true);
    expect(await remote.listKeys()).toEqual(await directOperations(store).listKeys());
    const revoked = await remote.revokeKey(created.id);
    expect([revoked.id, typeof revoked.revoked_at]).toEqual([created.id, "string"]);
    expect(await remote.setUdf({ organisation: "Table BV", name: "dossier", type: "text" })).toEqual({
      name: "dossier",
      type: "text",
    });
    expect(await remote.listUdf("Table BV")).toEqual([{ name: "dossier", type: "text" }]);
    expect(await remote.removeUdf({ organisation: "Table BV", name: "dossier" })).toBeUndefined();
    expect(await remote.listUdf("Table BV")).toEqual([]);
  });

  it("sends no result as null, an unknown operation as 404 and a refusal as 422 with its code", async () => {
    await post("set-udf", { organisation: "Table BV", name: "kenmerk", type: "text" });
    expect(await post("remove-udf", { organisation: "Table BV", name: "kenmerk" })).toEqual({
      status: 200,
      body: { result: null },
    });
    const problem = (status: number, title: string, code: string, detail: string) => ({
      status,
      body: { type: `https://incasso.dev/problems/${code}`, title, status, code, detail },
    });
    expect(await post("nope", {})).toEqual(problem(404, "Not Found", "not_found", "No operation nope."));
    expect(await post("constructor", {})).toEqual(
      problem(404, "Not Found", "not_found", "No operation constructor."),
    );
    expect(await post("revoke-key", { id: "key_missing" })).toEqual(
      problem(422, "Unprocessable Content", "key_not_found", "No API key with id key_missing."),
    );
  });
});
