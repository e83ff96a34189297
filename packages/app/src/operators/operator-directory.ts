import { type LoginLockRule, operatorRepository, type SqlStore } from "@incasso/store-sql";
import { credentialMatches, operatorIdOf } from "./operator-credential.js";

/**
 * What an operator may do in the console: a handler works cases; an admin also manages keys,
 * operators and webhooks (issue 19).
 *
 * @example
 * const role: OperatorRole = "handler";
 */
export type OperatorRole = "handler" | "admin";

/**
 * An operator as the console knows it: never the credential.
 *
 * @example
 * const operator: Operator = { id: "op_0123456789abcdef", name: "Jan de Vries", role: "admin" };
 */
export interface Operator {
  id: string;
  name: string;
  role: OperatorRole;
}

/**
 * The answer to a login: the operator, or why not. `locked` carries when logins are accepted again.
 *
 * @example
 * const result: LoginResult = { ok: false, reason: "locked", lockedUntil: new Date("2026-11-25T21:15:00Z") };
 */
export type LoginResult =
  | { ok: true; operator: Operator }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "locked"; lockedUntil: Date };

/**
 * Who may use the console: checks credentials and looks operators up.
 *
 * @example
 * const result = await directory.login(credential, "203.0.113.7");
 * if (result.ok) console.log(result.operator.name);
 */
export interface OperatorDirectory {
  /** Checks a credential. Failed attempts are counted per operator id (when the id part is
   *  known) and per client address; after 5 failures in 15 minutes logins are refused until
   *  lockedUntil (15 minutes), even with the right credential. A success resets the count. */
  login(credential: string, clientAddress: string, now?: Date): Promise<LoginResult>;
  /** The operator, or null when unknown or revoked (checked on every console request). */
  get(id: string): Promise<Operator | null>;
}

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
