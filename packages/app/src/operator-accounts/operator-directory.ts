// The console declares what it needs of an operator directory; this module implements it, so
// the shapes are written once, in @incasso/console, and re-exported here for the app's users.
import type { OperatorDirectory } from "@incasso/console";
import { type LoginLockRule, operatorRepository, type SqlStore } from "@incasso/store-sql";
import { credentialMatches, operatorIdOf } from "./operator-credential.js";

export type { LoginResult, Operator, OperatorDirectory, OperatorRole } from "@incasso/console";

/**
 * The lock-out rule: 5 failures within 15 minutes lock for 15 minutes (decision
 * operators-credentials, after the guidance of NIST SP 800-63B §5.2.2 to limit failed attempts).
 *
 * @example
 * OPERATOR_LOGIN_LOCK.maxFailures; // 5
 */
export const OPERATOR_LOGIN_LOCK: Readonly<LoginLockRule> = {
  maxFailures: 5,
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
};

// Compared against when the credential names no operator, so an unknown id costs the same work.
const NO_HASH = "0".repeat(64);

/**
 * The operator directory on the store's `operators` table (migration 2 of @incasso/store-sql).
 *
 * @example
 * const directory = createOperatorDirectory(store);
 * const result = await directory.login("iop_0123456789abcdef_…", "127.0.0.1");
 */
export function createOperatorDirectory(store: Pick<SqlStore, "database">): OperatorDirectory {
  const repo = operatorRepository(store.database);
  return {
    async login(credential, clientAddress, now = new Date()) {
      const id = operatorIdOf(credential);
      const record = id === undefined ? undefined : await repo.findById(id);
      const subjects = [`address:${clientAddress}`, ...(record ? [`operator:${record.id}`] : [])];
      const locked = await repo.lockedUntil(subjects, now);
      if (locked !== null) return { ok: false, reason: "locked", lockedUntil: locked };
      const matches = credentialMatches(credential, record?.credentialHash ?? NO_HASH);
      if (record !== undefined && record.revokedAt === null && matches) {
        await repo.clearFailures(subjects);
        return { ok: true, operator: { id: record.id, name: record.name, role: record.role } };
      }
      const until = await repo.recordFailure(subjects, now, OPERATOR_LOGIN_LOCK);
      return until === null
        ? { ok: false, reason: "invalid" }
        : { ok: false, reason: "locked", lockedUntil: until };
    },
    async get(id) {
      const record = await repo.findById(id);
      if (record === undefined || record.revokedAt !== null) return null;
      return { id: record.id, name: record.name, role: record.role };
    },
  };
}
