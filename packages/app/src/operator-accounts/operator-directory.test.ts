import type { SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appStoreTargets } from "../internal/testing/store-targets.js";
import { directOperatorAccountOperations } from "./operator-accounts.js";
import { hashOperatorCredential, operatorIdOf } from "./operator-credential.js";
import { createOperatorDirectory } from "./operator-directory.js";

// Operators log in with a credential shown once and stored hashed; repeated failures lock the
// operator and the client address (decision operators-credentials). On PGlite, and on PostgreSQL
// when TEST_DATABASE_URL is set (a schema of its own, dropped after).

const targets = appStoreTargets("operators");

const MINUTE = 60_000;

for (const target of targets) {
  describe(`operators on ${target.name}`, () => {
    let store: SqlStore;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      ({ store, drop } = await target.open());
    });
    afterAll(async () => {
      await drop();
      await store.close();
    });

    const accounts = () => directOperatorAccountOperations(store);

    it("issues a credential of the documented shape and stores only its SHA-256 hash", async () => {
      const created = await accounts().createOperator({ name: "  Jan de Vries ", role: "admin" });
      expect(created.id).toMatch(/^op_[0-9a-f]{16}$/);
      expect(created.credential).toMatch(/^iop_[0-9a-f]{16}_[0-9A-Za-z]{32}$/);
      expect(operatorIdOf(created.credential)).toBe(created.id);
      expect(created).toMatchObject({
        name: "Jan de Vries",
        role: "admin",
        revoked_at: null,
        locked_until: null,
      });
      const { rows } = await store.database.query<Record<string, unknown>>(
        "SELECT * FROM operators WHERE id = $1",
        [created.id],
      );
      expect(Object.keys(rows[0] ?? {}).sort()).toEqual([
        "created_at",
        "credential_hash",
        "id",
        "name",
        "revoked_at",
        "role",
      ]);
      expect(rows[0]?.credential_hash).toBe(hashOperatorCredential(created.credential));
      expect(JSON.stringify(rows)).not.toContain(created.credential.slice(21));
      // The default role is handler.
      expect((await accounts().createOperator({ name: "Els" })).role).toBe("handler");
    });

    it("refuses an empty name, an unknown role and an unknown id with stable codes", async () => {
      await expect(accounts().createOperator({ name: " " })).rejects.toMatchObject({
        code: "invalid_operator",
        message: "An operator's name must have 1 to 200 characters.",
      });
      await expect(accounts().createOperator({ name: "X", role: "root" as never })).rejects.toMatchObject({
        code: "invalid_operator",
        message: "The role must be handler or admin, not root.",
      });
      await expect(accounts().revokeOperator({ id: "op_0000000000000000" })).rejects.toMatchObject({
        code: "operator_not_found",
        message: "No operator with id op_0000000000000000.",
      });
    });

    it("logs in with the right credential and refuses a wrong, malformed or unknown one", async () => {
      const directory = createOperatorDirectory(store);
      const { id, credential } = await accounts().createOperator({ name: "Piet", role: "handler" });
      expect(await directory.login(credential, "198.51.100.1")).toEqual({
        ok: true,
        operator: { id, name: "Piet", role: "handler" },
      });
      const wrong = `${credential.slice(0, -1)}${credential.endsWith("a") ? "b" : "a"}`;
      expect(await directory.login(wrong, "198.51.100.1")).toEqual({ ok: false, reason: "invalid" });
      expect(await directory.login("svc_test_nonsense", "198.51.100.1")).toEqual({
        ok: false,
        reason: "invalid",
      });
      expect(await directory.login(`iop_0000000000000000_${"a".repeat(32)}`, "198.51.100.1")).toEqual({
        ok: false,
        reason: "invalid",
      });
      expect(await directory.get(id)).toEqual({ id, name: "Piet", role: "handler" });
      expect(await directory.get("op_ffffffffffffffff")).toBeNull();
    });

    it("locks an operator after 5 failures in 15 minutes, even for the right credential, until the lock ends", async () => {
      const directory = createOperatorDirectory(store);
      const { id, credential } = await accounts().createOperator({ name: "Klaas" });
      const wrong = `iop_${id.slice(3)}_${"0".repeat(32)}`;
      const t0 = new Date("2026-11-25T10:00:00.000Z");
      const at = (minutes: number) => new Date(t0.getTime() + minutes * MINUTE);
      // Each failure from another address: the operator's own count locks it.
      for (let i = 0; i < 4; i++) {
        expect(await directory.login(wrong, `203.0.113.${i}`, at(i))).toEqual({
          ok: false,
          reason: "invalid",
        });
      }
      const lockedUntil = at(4 + 15);
      expect(await directory.login(wrong, "203.0.113.4", at(4))).toEqual({
        ok: false,
        reason: "locked",
        lockedUntil,
      });
      expect(await directory.login(credential, "203.0.113.5", at(5))).toEqual({
        ok: false,
        reason: "locked",
        lockedUntil,
      });
      // The listing shows the lock while it runs.
      const listing = directOperatorAccountOperations(store, { now: () => at(5) });
      expect((await listing.listOperators()).find((o) => o.id === id)?.locked_until).toBe(
        lockedUntil.toISOString(),
      );
      // Once the lock has run out, the right credential works again and the count starts afresh.
      expect(await directory.login(credential, "203.0.113.5", at(19))).toMatchObject({ ok: true });
      expect(await directory.login(wrong, "203.0.113.6", at(20))).toEqual({ ok: false, reason: "invalid" });
    });

    it("counts failures in a 15-minute window, and a success resets the count", async () => {
      const directory = createOperatorDirectory(store);
      const { id, credential } = await accounts().createOperator({ name: "Mies" });
      const wrong = `iop_${id.slice(3)}_${"1".repeat(32)}`;
      const t0 = new Date("2026-11-25T12:00:00.000Z");
      const at = (minutes: number) => new Date(t0.getTime() + minutes * MINUTE);
      for (let i = 0; i < 4; i++) await directory.login(wrong, "192.0.2.10", at(i));
      // The success resets both counts: four more failures do not lock.
      expect(await directory.login(credential, "192.0.2.10", at(5))).toMatchObject({ ok: true });
      for (let i = 0; i < 4; i++) {
        expect(await directory.login(wrong, "192.0.2.10", at(6 + i))).toEqual({
          ok: false,
          reason: "invalid",
        });
      }
      // The window began at minute 6: at minute 21 it has passed and the count starts again at 1.
      expect(await directory.login(wrong, "192.0.2.10", at(21))).toEqual({ ok: false, reason: "invalid" });
      for (let i = 0; i < 3; i++) await directory.login(wrong, "192.0.2.10", at(22 + i));
      expect(await directory.login(wrong, "192.0.2.10", at(25))).toEqual({
        ok: false,
        reason: "locked",
        lockedUntil: at(40),
      });
    });

    it("locks a client address that tries credentials of no known operator, but not other addresses", async () => {
      const directory = createOperatorDirectory(store);
      const { credential } = await accounts().createOperator({ name: "Noor" });
      const t0 = new Date("2026-11-25T14:00:00.000Z");
      for (let i = 0; i < 4; i++) {
        expect(await directory.login(`guess-${i}`, "192.0.2.99", t0)).toEqual({
          ok: false,
          reason: "invalid",
        });
      }
      const lockedUntil = new Date(t0.getTime() + 15 * MINUTE);
      expect(await directory.login("guess-4", "192.0.2.99", t0)).toEqual({
        ok: false,
        reason: "locked",
        lockedUntil,
      });
      expect(await directory.login(credential, "192.0.2.99", t0)).toEqual({
        ok: false,
        reason: "locked",
        lockedUntil,
      });
      expect(await directory.login(credential, "192.0.2.100", t0)).toMatchObject({ ok: true });
    });

    it("a revoked operator is null for get and cannot log in; the listing shows the revocation", async () => {
      const directory = createOperatorDirectory(store);
      const { id, credential } = await accounts().createOperator({ name: "Sara", role: "admin" });
      const revoked = await accounts().revokeOperator({ id });
      expect(revoked.revoked_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(await directory.get(id)).toBeNull();
      expect(await directory.login(credential, "198.51.100.50")).toEqual({ ok: false, reason: "invalid" });
      const listed = await accounts().listOperators();
      expect(listed.find((o) => o.id === id)).toEqual({
        id,
        name: "Sara",
        role: "admin",
        created_at: revoked.created_at,
        revoked_at: revoked.revoked_at,
        locked_until: null,
      });
      expect(JSON.stringify(listed)).not.toContain("iop_");
    });
  });
}
