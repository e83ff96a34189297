// Checks of a parsed JSON body that no schema can make: how deep it nests, and where it holds a
// character no field takes (NUL, an unpaired surrogate). Both walk the body with a stack of their
// own, never by recursion, so the walk itself cannot run out of stack on a hostile body.

/**
 * Whether `value` nests arrays and objects more than `max` levels deep (the top level is 1).
 *
 * @example
 * nestsDeeperThan([[[]]], 2); // true
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== "object") return false;
  const stack: [object, number][] = [[value, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Why a string cannot be stored: the NUL character, or an unpaired UTF-16 surrogate. */
export type BadCharacter = "nul" | "lone_surrogate";

// A high surrogate not followed by a low one, or a low one not preceded by a high one. Without the
// `u` flag the pattern reads UTF-16 code units, which is what a lone surrogate is.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * What, if anything, makes `text` unstorable: the NUL character U+0000 (PostgreSQL text cannot hold
 * it) or an unpaired surrogate U+D800 to U+DFFF (valid in JSON, no Unicode text: PostgreSQL's json
 * refuses it, and UTF-8 cannot encode it).
 *
 * @example
 * badCharacterIn("a\ud800"); // "lone_surrogate"
 */
export function badCharacterIn(text: string): BadCharacter | undefined {
  if (text.includes("\u0000")) return "nul";
  if (LONE_SURROGATE.test(text)) return "lone_surrogate";
  return undefined;
}

/**
 * The strings in `value` (object keys included) that hold a character no field takes (see
 * {@link badCharacterIn}), with their paths, in document order, at most `limit` of them.
 *
 * @example
 * pathsWithBadCharacters({ a: ["x", "y\u0000"] }, 10); // [{ path: ["a", 1], character: "nul" }]
 */
export function pathsWithBadCharacters(
  value: unknown,
  limit: number,
): { path: PropertyKey[]; character: BadCharacter }[] {
  const found: { path: PropertyKey[]; character: BadCharacter }[] = [];
  // A key that is itself bad is stacked as its own entry (the third element), so it is reported in
  // its place in document order and its value is not looked at.
  const stack: [unknown, PropertyKey[], BadCharacter | undefined][] = [[value, [], undefined]];
  for (let next = stack.pop(); next !== undefined && found.length < limit; next = stack.pop()) {
    const [node, path, badKey] = next;
    if (badKey !== undefined) {
      found.push({ path, character: badKey });
      continue;
    }
    if (typeof node === "string") {
      const character = badCharacterIn(node);
      if (character !== undefined) found.push({ path, character });
      continue;
    }
    if (node === null || typeof node !== "object") continue;
    const entries: [PropertyKey, unknown][] = Array.isArray(node)
      ? node.map((item, i) => [i, item])
      : Object.entries(node);
    // Pushed in reverse, so the walk visits them in document order.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [PropertyKey, unknown];
      stack.push([child, [...path, key], typeof key === "string" ? badCharacterIn(key) : undefined]);
    }
  }
  return found;
}
