/**
 * What an operator may do: a handler works cases; an admin also manages keys, operators, webhook
 * endpoints and organisations (issue 19, item 2).
 *
 * @example
 * const role: OperatorRole = "handler";
 */
export type OperatorRole = "handler" | "admin";

/**
 * A person who works in the console.
 *
 * @example
 * const operator: Operator = { id: "opr_0123456789abcdef", name: "Jan de Vries", role: "admin" };
 */
export interface Operator {
  id: string;
  name: string;
  role: OperatorRole;
}

/**
 * The outcome of a login: the operator, a wrong credential, or a lock-out until a time.
 *
 * @example
 * const result: LoginResult = { ok: false, reason: "locked", lockedUntil: new Date("2026-11-25T21:15:00Z") };
 */
export type LoginResult =
  | { ok: true; operator: Operator }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "locked"; lockedUntil: Date };

/**
 * Where the console checks credentials and looks operators up. The console declares it and the
 * app supplies it (`createOperatorDirectory(store)` of `@incasso/app`), so this package depends on
 * no store of operators.
 *
 * @example
 * const directory: OperatorDirectory = {
 *   login: async () => ({ ok: false, reason: "invalid" }),
 *   get: async () => null,
 * };
 */
export interface OperatorDirectory {
  login(credential: string, clientAddress: string, now?: Date): Promise<LoginResult>;
  get(id: string): Promise<Operator | null>;
}
