import type { OperatorSummary } from "../operators/operator-accounts.js";
import type { OperatorRole } from "../operators/operator-directory.js";
import { JSON_FLAG, STORAGE_FLAGS } from "./common-flags.js";
import type { FlagSpec, FlagValues } from "./flag-spec.js";
import { oneOf, required } from "./flag-values.js";
import { printJson } from "./print.js";
import type { Leaf } from "./program.js";

// Only declarations and flag parsing are loaded with the command tree; the store is imported when
// a command runs (issue 17, start time).

const data = (...specs: FlagSpec[]): readonly FlagSpec[] => [...specs, JSON_FLAG, ...STORAGE_FLAGS];

function operatorLine(o: OperatorSummary): string {
  const state = [
    o.revoked_at ? `revoked ${o.revoked_at}` : "",
    o.locked_until ? `locked until ${o.locked_until}` : "",
  ].filter(Boolean);
  return `${o.id}  ${o.role.padEnd(7)}  ${o.name}  created ${o.created_at}${state.length ? `  ${state.join("  ")}` : ""}`;
}

async function withOperations<T>(
  values: FlagValues,
  fn: (ops: import("../operator/operations.js").OperatorOperations) => Promise<T>,
): Promise<T> {
  const { withOperations: run } = await import("../internal/cli-store.js");
  return run(values, "operators", fn);
}

/**
 * `incasso operators create --name NAME [--role handler|admin]`: issues an operator of the console
 * and shows its credential once; only its hash is stored (decision operators-credentials).
 *
 * @example
 * await operatorsCreate({ name: "Jan de Vries", role: "admin", "data-dir": ".data" });
 */
export async function operatorsCreate(values: FlagValues): Promise<void> {
  const name = required(values, "name");
  const role: OperatorRole = oneOf(values, "role", ["handler", "admin"] as const) ?? "handler";
  const created = await withOperations(values, (ops) => ops.createOperator({ name, role }));
  if (values.json) return printJson(created);
  console.log(`Operator ${operatorLine(created)}`);
  console.log("The credential is shown once; hand it to the operator now:");
  console.log(created.credential);
}

/**
 * `incasso operators list`: every operator with role, creation, revocation and lock; never the
 * credential.
 *
 * @example
 * await operatorsList({ json: true });
 */
export async function operatorsList(values: FlagValues): Promise<void> {
  const list = await withOperations(values, (ops) => ops.listOperators());
  if (values.json) return printJson(list);
  if (list.length === 0)
    console.log("No operators yet. Create one with: incasso operators create --name NAME");
  for (const o of list) console.log(operatorLine(o));
}

/**
 * `incasso operators revoke ID`: the credential stops working at the next console request.
 *
 * @example
 * await operatorsRevoke("op_0123456789abcdef", {});
 */
export async function operatorsRevoke(id: string, values: FlagValues): Promise<void> {
  const revoked = await withOperations(values, (ops) => ops.revokeOperator({ id }));
  if (values.json) return printJson(revoked);
  console.log(`Revoked ${revoked.id} (${revoked.name}) at ${revoked.revoked_at}.`);
}

/**
 * The `incasso operators` commands, for the command tree.
 *
 * @example
 * addGroup(root, "operators", "operators of the console and their credentials", OPERATORS);
 */
export const OPERATORS: Leaf[] = [
  {
    name: "create",
    summary: "issue an operator of the console; the credential is shown once",
    flags: data(
      { name: "name", value: "NAME", description: "the operator's name, as the audit trail shows it" },
      {
        name: "role",
        value: "ROLE",
        description: "handler (works cases) or admin (also keys, operators, webhooks); default handler",
      },
    ),
    run: (v) => operatorsCreate(v),
  },
  {
    name: "list",
    summary: "list operators: role, created, revoked, locked until (never credentials)",
    flags: data(),
    run: (v) => operatorsList(v),
  },
  {
    name: "revoke",
    summary: "revoke an operator; its credential stops working",
    args: ["<id>"],
    flags: data(),
    run: (v, [id]) => operatorsRevoke(id as string, v),
  },
];
