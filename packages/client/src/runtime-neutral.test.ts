import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// The published code runs on fetch alone (Node >= 20.19, browsers, Deno, Bun, workers): no `node:`
// import in any file that ships. Tests and src/internal/testing/ run on Node only and are not
// shipped (tsup bundles what src/index.ts and src/webhooks.ts reach).
const root = new URL(".", import.meta.url).pathname;
function shippedFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return relative(root, path) === join("internal", "testing") ? [] : shippedFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}
// Import specifiers of a file, comments (and the JSDoc examples in them) left out.
const specifiers = (path: string) =>
  [
    ...readFileSync(path, "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/^\s*\/\/.*$/gm, "")
      .matchAll(/(?:from\s*|import\s*\(\s*|import\s+)["']([^"']+)["']/g),
  ].map((m) => m[1]);

describe("runtime-neutral source", () => {
  const files = shippedFiles(root);

  it("finds the shipped files", () => {
    expect(files.map((f) => relative(root, f))).toEqual(
      expect.arrayContaining(["index.ts", "webhooks.ts", "create-incasso-client.ts", "internal/send.ts"]),
    );
  });

  it("imports nothing from node:", () => {
    const nodeImports = files.flatMap((f) =>
      specifiers(f)
        .filter((s) => s?.startsWith("node:"))
        .map((s) => `${relative(root, f)}: ${s}`),
    );
    expect(nodeImports).toEqual([]);
  });

  it("reaches @incasso/webhook-signing (node:crypto) only from the ./webhooks entry", () => {
    const importers = files.filter((f) => specifiers(f).includes("@incasso/webhook-signing"));
    expect(importers.map((f) => relative(root, f))).toEqual(["webhooks.ts"]);
    const packages = files.flatMap((f) => specifiers(f).filter((s) => !s?.startsWith(".")));
    expect([...new Set(packages)]).toEqual(["@incasso/webhook-signing"]);
  });
});
