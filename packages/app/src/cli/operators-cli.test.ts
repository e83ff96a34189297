import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { openStore, type SqlStore } from "@incasso/store-sql";
import { cliProcesses, newDataDir } from "@incasso/test-utils";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOperatorDirectory } from "../operator-accounts/operator-directory.js";

// `incasso operators …` and `incasso letter-details …` as a user runs them: exit codes (decision
// cli-exit-codes), --json, the credential shown once. On an embedded data directory, and on
// PostgreSQL in a throwaway database when TEST_DATABASE_URL is set.

const cli = cliProcesses();
const { run } = cli;
afterEach(() => cli.killAll("SIGTERM"));

interface Target {
  name: string;
  setUp: () => Promise<{ storage: string[]; tearDown: () => Promise<void> }>;
}

const targets: Target[] = [
  {
    name: "a data directory",
    setUp: async () => {
      const dir = await newDataDir("incasso-operators-");
      return {
        storage: ["--data-dir", dir],
        tearDown: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
];
const url = process.env.TEST_DATABASE_URL;
if (url) {
  targets.push({
    name: "PostgreSQL",
    setUp: async () => {
      const database = `incasso_operators_${randomBytes(5).toString("hex")}`;
      const admin = await openStore({ databaseUrl: url, migrate: false });
      await admin.database.query(`CREATE DATABASE ${database}`);
      const u = new URL(url);
      u.pathname = `/${database}`;
      return {
        storage: ["--database-url", u.toString()],
        tearDown: async () => {
          await admin.database.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
          await admin.close();
        },
      };
    },
  });
}

/** Opens the target's store in this process, for checks the CLI does not show. */
async function openTarget(storage: string[]): Promise<SqlStore> {
  const { INCASSO_MIGRATIONS } = await import("../internal/incasso-migrations.js");
  const [flag, value] = storage;
  return openStore({
    ...(flag === "--data-dir" ? { dataDir: value } : { databaseUrl: value }),
    migrations: INCASSO_MIGRATIONS,
  });
}

for (const target of targets) {
  describe(`incasso operators on ${target.name}`, () => {
    let storage: string[];
    let tearDown: () => Promise<void>;
    beforeAll(async () => {
      ({ storage, tearDown } = await target.setUp());
    });
    afterAll(() => tearDown());

    it("creates (credential once), lists (never the credential) and revokes; refuses with exit codes 2 and 3", {
      timeout: 120_000,
    }, async () => {
      const created = await run([
        "operators",
        "create",
        "--name",
        "Jan de Vries",
        "--role",
        "admin",
        "--json",
        ...storage,
      ]);
      expect([created.code, created.err]).toEqual([0, ""]);
      const operator = JSON.parse(created.out) as Record<string, unknown>;
      expect(operator).toEqual({
        id: expect.stringMatching(/^op_[0-9a-f]{16}$/),
        name: "Jan de Vries",
        role: "admin",
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        revoked_at: null,
        locked_until: null,
        credential: expect.stringMatching(/^iop_[0-9a-f]{16}_[0-9A-Za-z]{32}$/),
      });

      const handler = await run(["operators", "create", "--name", "Els", ...storage]);
      expect(handler.code).toBe(0);
      const lines = handler.out.trimEnd().split("\n");
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(/^Operator op_[0-9a-f]{16} {2}handler {2}Els {2}created \d{4}-/);
      expect(lines[1]).toBe("The credential is shown once; hand it to the operator now:");
      expect(lines[2]).toMatch(/^iop_[0-9a-f]{16}_[0-9A-Za-z]{32}$/);

      const list = await run(["operators", "list", "--json", ...storage]);
      expect(list.code).toBe(0);
      const listed = JSON.parse(list.out) as Array<Record<string, unknown>>;
      expect(listed.map((o) => [o.name, o.role])).toEqual([
        ["Jan de Vries", "admin"],
        ["Els", "handler"],
      ]);
      expect(Object.keys(listed[0] ?? {}).sort()).toEqual([
        "created_at",
        "id",
        "locked_until",
        "name",
        "revoked_at",
        "role",
      ]);
      expect(list.out).not.toContain("iop_");

      // The credential works until the operator is revoked.
      const store = await openTarget(storage);
      try {
        const directory = createOperatorDirectory(store);
        expect(await directory.login(String(operator.credential), "127.0.0.1")).toEqual({
          ok: true,
          operator: { id: operator.id, name: "Jan de Vries", role: "admin" },
        });
        const { rows } = await store.database.query<{ credential_hash: string }>(
          "SELECT credential_hash FROM operators WHERE id = $1",
          [operator.id],
        );
        expect(rows[0]?.credential_hash).toMatch(/^[0-9a-f]{64}$/);
      } finally {
        await store.close();
      }

      const revoked = await run(["operators", "revoke", String(operator.id), ...storage]);
      expect(revoked.code).toBe(0);
      expect(revoked.out).toMatch(new RegExp(`^Revoked ${operator.id} \\(Jan de Vries\\) at \\d{4}-`));
      const after = await openTarget(storage);
      try {
        expect(await createOperatorDirectory(after).get(String(operator.id))).toBeNull();
      } finally {
        await after.close();
      }

      const unknown = await run(["operators", "revoke", "op_0000000000000000", "--json", ...storage]);
      expect(unknown.code).toBe(3);
      expect(JSON.parse(unknown.err)).toEqual({
        type: "https://incasso.dev/problems/operator_not_found",
        title: "Not Found",
        status: 404,
        code: "operator_not_found",
        detail: "No operator with id op_0000000000000000.",
        exit_code: 3,
      });
      const badRole = await run(["operators", "create", "--name", "X", "--role", "root", ...storage]);
      expect(badRole.code).toBe(2);
      expect(badRole.err).toContain("--role must be");
      const noName = await run(["operators", "create", ...storage]);
      expect(noName.code).toBe(2);
      expect(noName.err).toContain("incasso: --name is required");
    });

    it("sets and shows letter details; refuses an invalid IBAN with exit code 2 and an unknown organisation with 3", {
      timeout: 120_000,
    }, async () => {
      const key = await run(["keys", "create", "--organisation", "Brief BV", "--mode", "test", ...storage]);
      expect(key.code).toBe(0);

      const invalid = await run([
        "letter-details",
        "set",
        "--organisation",
        "Brief BV",
        "--iban",
        "NL92 ABNA 0417 1643 00",
        ...storage,
      ]);
      expect(invalid.code).toBe(2);
      expect(invalid.err.split("\n")[0]).toBe(
        "incasso: --iban: NL92 ABNA 0417 1643 00 is not a valid IBAN: its check digits do not match (ISO 13616 mod-97).",
      );

      const set = await run([
        "letter-details",
        "set",
        "--organisation",
        "Brief BV",
        "--sender-name",
        "Incassobureau Brief B.V.",
        "--street",
        "Keizersgracht 100",
        "--postal-code",
        "1015aa",
        "--city",
        "Amsterdam",
        "--iban",
        "nl91 abna 0417 1643 00",
        "--kvk-number",
        "12345678",
        "--phone",
        "020 123 4567",
        "--email",
        "info@brief.nl",
        "--json",
        ...storage,
      ]);
      expect([set.code, set.err]).toEqual([0, ""]);
      expect(JSON.parse(set.out)).toEqual({
        organisation: "Brief BV",
        sender_name: "Incassobureau Brief B.V.",
        street: "Keizersgracht 100",
        postal_code: "1015 AA",
        city: "Amsterdam",
        iban: "NL91ABNA0417164300",
        bic: null,
        kvk_number: "12345678",
        phone: "020 123 4567",
        email: "info@brief.nl",
        updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      });

      // An empty value clears a field; the others keep theirs.
      const cleared = await run([
        "letter-details",
        "set",
        "--organisation",
        "Brief BV",
        "--phone",
        "",
        ...storage,
      ]);
      expect(cleared.code).toBe(0);
      const shown = await run(["letter-details", "show", "--organisation", "Brief BV", ...storage]);
      expect(shown.code).toBe(0);
      expect(shown.out).toBe(
        [
          "Organisation: Brief BV",
          "Sender:       Incassobureau Brief B.V.",
          "Address:      Keizersgracht 100, 1015 AA Amsterdam",
          "IBAN:         NL91 ABNA 0417 1643 00",
          "BIC:          -",
          "KvK number:   12345678",
          "Phone:        -",
          "E-mail:       info@brief.nl",
          "",
        ].join("\n"),
      );

      const nothing = await run(["letter-details", "set", "--organisation", "Brief BV", ...storage]);
      expect(nothing.code).toBe(2);
      const unknown = await run([
        "letter-details",
        "show",
        "--organisation",
        "Geen BV",
        "--json",
        ...storage,
      ]);
      expect(unknown.code).toBe(3);
      expect(JSON.parse(unknown.err)).toMatchObject({ code: "organisation_not_found", exit_code: 3 });
    });
  });
}
