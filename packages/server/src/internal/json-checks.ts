// Checks of a parsed JSON body that no schema can make: how deep it nests, and where it holds the
// NUL character. Both walk the body with a stack of their own, never by recursion, so the walk
// itself cannot run out of stack on a hostile body.

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

/**
 * The paths of the strings in `value` (object keys included) that hold the NUL character U+0000,
 * in document order, at most `limit` of them.
 *
 * @example
 * pathsWithNul({ a: ["x", "y\u0000"] }, 10); // [["a", 1]]
 */
export function pathsWithNul(value: unknown, limit: number): PropertyKey[][] {
  const found: PropertyKey[][] = [];
  const stack: [unknown, PropertyKey[]][] = [[value, []]];
  for (let next = stack.pop(); next !== undefined && found.length < limit; next = stack.pop()) {
    const [node, path] = next;
    if (typeof node === "string") {
      if (node.includes("\u0000")) found.push(path);
      continue;
    }
    if (node === null || typeof node !== "object") continue;
    const entries: [PropertyKey, unknown][] = Array.isArray(node)
      ? node.map((item, i) => [i, item])
      : Object.entries(node);
    // Pushed in reverse, so the walk visits them in document order.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [PropertyKey, unknown];
      if (typeof key === "string" && key.includes("\u0000")) {
        found.push([...path, key]);
        continue;
      }
      stack.push([child, [...path, key]]);
    }
  }
  return found.slice(0, limit);
}
