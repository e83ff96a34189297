import type { SqlStore } from "@incasso/store-sql";
import { flag } from "../cli/common-flags.js";
import { oneOf, required } from "../cli/flag-values.js";
import type { OperatorSummary } from "../operator-accounts/operator-accounts.js";
import type { OperatorRole } from "../operator-accounts/operator-directory.js";
import { defineOperation } from "./operator-operation.js";

// Operators of the console (`incasso operators …`, decision operators-credentials), on the
// operator accounts of operator-accounts/operator-accounts.ts. That module and the store are imported when
// an operation runs, so the CLI's start loads none of it (issue 17, start time).

function operatorLine(o: OperatorSummary): string {
  const state = [
    o.revoked_at ? `revoked ${o.revoked_at}` : "",
    o.locked_until ? `locked until ${o.locked_until}` : "",
  ].filter(Boolean);
  return `${o.id}  ${o.role.padEnd(7)}  ${o.name}  created ${o.created_at}${state.length ? `  ${state.join("  ")}` : ""}`;
}

async function accounts(store: SqlStore) {
  const { directOperatorAccountOperations } = await import("../operator-accounts/operator-accounts.js");
  return directOperatorAccountOperations(store);
}

/**
 * `create-operator`: issues an operator of the console; the credential is in the result once and
 * only its hash is stored (decision operators-credentials).
 *
 * @example
 * const { credential } = await operations.createOperator({ name: "Jan de Vries", role: "admin" });
 */
export const createOperator = defineOperation({
  name: "create-operator",
  fields: { name: "string", role: "string?" },
  run: async (
    { store },
    input: { name: string; role?: OperatorRole },
  ): Promise<OperatorSummary & { credential: string }> => (await accounts(store)).createOperator(input),
  cli: {
    group: "operators",
    command: "create",
    summary: "issue an operator of the console; the credential is shown once",
    flags: [
      flag("name", "the operator's name, as the audit trail shows it", "NAME"),
      flag(
        "role",
        "handler (works cases) or admin (also keys, operators, webhooks); default handler",
        "ROLE",
      ),
    ],
    input: (values) => ({
      name: required(values, "name"),
      role: oneOf(values, "role", ["handler", "admin"] as const) ?? "handler",
    }),
    text: (created) =>
      [
        `Operator ${operatorLine(created)}`,
        "The credential is shown once; hand it to the operator now:",
        created.credential,
      ].join("\n"),
  },
});

/**
 * `list-operators`: every operator with role, creation, revocation and lock; never the credential.
 *
 * @example
 * const operators = await operations.listOperators();
 */
export const listOperators = defineOperation({
  name: "list-operators",
  input: () => ({}),
  positional: [],
  run: async ({ store }, _input: Record<string, never>): Promise<OperatorSummary[]> =>
    (await accounts(store)).listOperators(),
  cli: {
    group: "operators",
    command: "list",
    summary: "list operators: role, created, revoked, locked until (never credentials)",
    flags: [],
    input: () => ({}),
    text: (list) =>
      list.length === 0
        ? "No operators yet. Create one with: incasso operators create --name NAME"
        : list.map(operatorLine).join("\n"),
  },
});

/**
 * `revoke-operator`: the credential stops working at the next console request; an unknown id is
 * refused with `operator_not_found`.
 *
 * @example
 * const revoked = await operations.revokeOperator({ id: "op_0123456789abcdef" });
 */
export const revokeOperator = defineOperation({
  name: "revoke-operator",
  fields: { id: "string" },
  run: async ({ store }, input: { id: string }): Promise<OperatorSummary> =>
    (await accounts(store)).revokeOperator(input),
  cli: {
    group: "operators",
    command: "revoke",
    summary: "revoke an operator; its credential stops working",
    args: ["<id>"],
    flags: [],
    input: (_values, [id]) => ({ id: id as string }),
    text: (revoked) => `Revoked ${revoked.id} (${revoked.name}) at ${revoked.revoked_at}.`,
  },
});
