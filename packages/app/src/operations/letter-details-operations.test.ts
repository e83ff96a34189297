import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { issueApiKey } from "@incasso/core";
import { openStore, type SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INCASSO_MIGRATIONS } from "../internal/incasso-migrations.js";
import { directOperations, type OperatorOperations } from "./operations.js";
import { readOperatorEndpoint, remoteOperations } from "./operator-client.js";
import { type OperatorEndpoint, startOperatorEndpoint } from "./operator-endpoint.js";

// The letter details and operator operations are the same on the store and through a running
// server's operator endpoint (decision operator-endpoint), refusals with their stable codes.
let store: SqlStore;
let endpoint: OperatorEndpoint;
let dir: string;
let ways: [string, OperatorOperations][];
beforeAll(async () => {
  store = await openStore({ migrations: INCASSO_MIGRATIONS });
  await issueApiKey(store, { organisation: "Endpoint BV", mode: "test" });
  dir = mkdtempSync(join(tmpdir(), "incasso-endpoint-"));
  const direct = directOperations(store);
  endpoint = await startOperatorEndpoint({ operations: direct, dataDir: dir });
  const info = readOperatorEndpoint(dir);
  if (info === undefined) throw new Error("no operator.json");
  ways = [
    ["directly", direct],
    ["through the operator endpoint", remoteOperations(info)],
  ];
});
afterAll(async () => {
  await endpoint.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("letter details and operators as operations", () => {
  it("set and show letter details, refuse an invalid IBAN and an unknown organisation", async () => {
    for (const [, ops] of ways) {
      const set = await ops.setLetterDetails({
        organisation: "Endpoint BV",
        details: { iban: "nl91abna0417164300", kvk_number: "12345678" },
      });
      expect(set).toMatchObject({
        organisation: "Endpoint BV",
        iban: "NL91ABNA0417164300",
        kvk_number: "12345678",
      });
      expect(await ops.showLetterDetails({ organisation: "Endpoint BV" })).toEqual(set);
      await expect(
        ops.setLetterDetails({ organisation: "Endpoint BV", details: { iban: "NL91ABNA0417164301" } }),
      ).rejects.toMatchObject({
        code: "invalid_letter_details",
        message:
          "iban: NL91ABNA0417164301 is not a valid IBAN: its check digits do not match (ISO 13616 mod-97).",
      });
      await expect(ops.showLetterDetails({ organisation: "Geen BV" })).rejects.toMatchObject({
        code: "organisation_not_found",
      });
    }
  });

  it("create, list and revoke operators; an unknown id is operator_not_found", async () => {
    for (const [way, ops] of ways) {
      const created = await ops.createOperator({ name: `Operator ${way}`, role: "admin" });
      expect(created.credential).toMatch(/^iop_[0-9a-f]{16}_[0-9A-Za-z]{32}$/);
      const listed = await ops.listOperators();
      expect(listed.find((o) => o.id === created.id)).toEqual({
        id: created.id,
        name: `Operator ${way}`,
        role: "admin",
        created_at: created.created_at,
        revoked_at: null,
        locked_until: null,
      });
      expect((await ops.revokeOperator({ id: created.id })).revoked_at).not.toBeNull();
      await expect(ops.revokeOperator({ id: "op_0000000000000000" })).rejects.toMatchObject({
        code: "operator_not_found",
        message: "No operator with id op_0000000000000000.",
      });
      await expect(ops.createOperator({ name: "" })).rejects.toMatchObject({ code: "invalid_operator" });
    }
  });
});
