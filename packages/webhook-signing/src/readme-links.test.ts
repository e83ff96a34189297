import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

describe("package README", () => {
  // Every repository document the README names must exist (the benchmark results were once linked
  // before they were recorded). Glob patterns such as docs/decisions/webhook-signing-*.md are skipped.
  const named = [...new Set(readme.match(/\bdocs\/[\w./-]+\.md\b/g) ?? [])];

  it("names the benchmark results and the receiver guide", () => {
    expect(named).toEqual(expect.arrayContaining(["docs/benchmarks/webhook-signing.md", "docs/webhooks.md"]));
  });

  it.each(named)("%s exists", (path) => {
    expect(existsSync(`${root}${path}`)).toBe(true);
  });
});
