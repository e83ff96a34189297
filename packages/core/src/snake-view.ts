// The wire objects of the operator and handler views are snake_case with ISO 8601 timestamps
// (spec: "Field names are snake_case", "timestamps ISO 8601 UTC"), made from camelCase records
// with Dates. One mapper makes them all, typed: a view's fields are the record's, renamed.

/**
 * A camelCase name in snake_case, as a type: `caseNumber` → `case_number`.
 *
 * @example
 * const name: SnakeCase<"nextAttemptAt"> = "next_attempt_at";
 */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/**
 * A record's value on the wire: a Date as its ISO 8601 string, anything else as it is.
 *
 * @example
 * const at: WireValue<Date | null> = "2026-11-21T10:00:00.000Z";
 */
export type WireValue<V> = V extends Date ? string : V;

/**
 * The fields `K` of a record, snake_case, with Dates as ISO strings.
 *
 * @example
 * type Payment = SnakeView<{ amountCents: number; bookedAt: Date }, "amountCents" | "bookedAt">;
 * // { amount_cents: number; booked_at: string }
 */
export type SnakeView<T, K extends keyof T & string> = { [P in K as SnakeCase<P>]: WireValue<T[P]> };

const names = new Map<string, string>();

function snakeCase(name: string): string {
  let snake = names.get(name);
  if (snake === undefined) {
    snake = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    names.set(name, snake);
  }
  return snake;
}

/**
 * The fields `keys` of `record`, in that order, snake_case and with Dates as ISO 8601 strings.
 * A field whose wire name is not its name mechanically snake-cased is set beside it by the caller.
 *
 * @example
 * snakeView({ amountCents: 5000, bookedAt: new Date(0), id: "pay_1" }, ["id", "amountCents", "bookedAt"]);
 * // { id: "pay_1", amount_cents: 5000, booked_at: "1970-01-01T00:00:00.000Z" }
 */
export function snakeView<T extends object, const K extends readonly (keyof T & string)[]>(
  record: T,
  keys: K,
): SnakeView<T, K[number]> {
  const view: Record<string, unknown> = {};
  for (const key of keys) {
    const value = record[key];
    view[snakeCase(key)] = value instanceof Date ? value.toISOString() : value;
  }
  return view as SnakeView<T, K[number]>;
}
