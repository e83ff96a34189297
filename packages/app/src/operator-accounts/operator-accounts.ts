import { type OperatorRecord, operatorRepository, type SqlStore } from "@incasso/store-sql";
import { generateOperatorCredential, hashOperatorCredential, newOperatorId } from "./operator-credential.js";
import type { OperatorRole } from "./operator-directory.js";

/**
 * Stable codes of {@link OperatorAccountError}: `operator_not_found` (exit 3 in the CLI) and
 * `invalid_operator`, a name or role refused (exit 2; decision cli-exit-codes).
 *
 * @example
 * const code: OperatorAccountErrorCode = "operator_not_found";
 */
export type OperatorAccountErrorCode = "operator_not_found" | "invalid_operator";

/**
 * A refusal of an operator account operation, with a stable code.
 *
 * @example
 * throw new OperatorAccountError("operator_not_found", "No operator op_0123456789abcdef.");
 */
export class OperatorAccountError extends Error {
  readonly code: OperatorAccountErrorCode;
  /** Brand checked by {@link isOperatorAccountError}. */
  readonly isIncassoOperatorAccountError = true as const;
  constructor(code: OperatorAccountErrorCode, message: string) {
    super(message);
    this.name = "OperatorAccountError";
    this.code = code;
  }
}

/**
 * Whether a value is an {@link OperatorAccountError}.
 *
 * @example
 * isOperatorAccountError(new OperatorAccountError("invalid_operator", "…")); // true
 */
export function isOperatorAccountError(value: unknown): value is OperatorAccountError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { isIncassoOperatorAccountError?: unknown }).isIncassoOperatorAccountError === true
  );
}

/**
 * An operator as listed: never the credential nor its hash.
 *
 * @example
 * const s: OperatorSummary = { id: "op_0123456789abcdef", name: "Jan", role: "handler",
 *   created_at: "2026-11-25T10:00:00.000Z", revoked_at: null, locked_until: null };
 */
export interface OperatorSummary {
  id: string;
  name: string;
  role: OperatorRole;
  created_at: string;
  revoked_at: string | null;
  locked_until: string | null;
}

/**
 * Managing operators on an open store. The operator operations `createOperator`, `listOperators`
 * and `revokeOperator` (operations/operator-account-operations.ts) run these, directly or behind the
 * operator endpoint.
 *
 * @example
 * const { credential } = await ops.createOperator({ name: "Jan de Vries", role: "handler" });
 */
export interface OperatorAccountOperations {
  /** Issues an operator and its credential, which is shown this once. */
  createOperator(input: {
    name: string;
    role?: OperatorRole;
  }): Promise<OperatorSummary & { credential: string }>;
  listOperators(): Promise<OperatorSummary[]>;
  revokeOperator(input: { id: string }): Promise<OperatorSummary>;
}

function summary(record: OperatorRecord): OperatorSummary {
  return {
    id: record.id,
    name: record.name,
    role: record.role,
    created_at: record.createdAt.toISOString(),
    revoked_at: record.revokedAt?.toISOString() ?? null,
    locked_until: record.lockedUntil?.toISOString() ?? null,
  };
}

const ROLES: readonly OperatorRole[] = ["handler", "admin"];

/**
 * The operator account operations on an open store.
 *
 * @example
 * const ops = directOperatorAccountOperations(store);
 * await ops.revokeOperator({ id: "op_0123456789abcdef" });
 */
export function directOperatorAccountOperations(
  store: Pick<SqlStore, "database">,
  options: { now?: () => Date } = {},
): OperatorAccountOperations {
  const now = options.now ?? (() => new Date());
  const repo = operatorRepository(store.database);
  return {
    async createOperator(input) {
      const name = typeof input.name === "string" ? input.name.trim() : "";
      if (name === "" || name.length > 200) {
        throw new OperatorAccountError(
          "invalid_operator",
          "An operator's name must have 1 to 200 characters.",
        );
      }
      const role = input.role ?? "handler";
      if (!ROLES.includes(role)) {
        throw new OperatorAccountError(
          "invalid_operator",
          `The role must be handler or admin, not ${String(role)}.`,
        );
      }
      const id = newOperatorId();
      const credential = generateOperatorCredential(id);
      const record = await repo.create({
        id,
        name,
        role,
        credentialHash: hashOperatorCredential(credential),
        now: now(),
      });
      return { ...summary(record), credential };
    },
    listOperators: async () => (await repo.list(now())).map(summary),
    async revokeOperator(input) {
      const record = await repo.revoke(String(input.id), now());
      if (record === undefined) {
        throw new OperatorAccountError("operator_not_found", `No operator with id ${String(input.id)}.`);
      }
      return summary(record);
    },
  };
}
