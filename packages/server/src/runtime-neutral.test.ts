import { existsSync } from "node:fs";
import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { describe, expect, it } from "vitest";

// Issue 15: the kernel runs on any JavaScript runtime (Node, Deno, Bun, browsers, edge workers).
// Each entry below is bundled as esbuild does for a platform-neutral target, and the imports left
// in the output must name no Node built-in, no database driver and no static openai (the OpenAI
// checker imports it on first use, which shows as a dynamic import and is allowed).
const root = fileURLToPath(new URL("../../../", import.meta.url));

// The kernel's main entry, and the two packages below it that it bundles.
const ENTRIES = [
  "packages/server/src/index.ts",
  "packages/core/src/index.ts",
  "packages/pdf-guard/src/index.ts",
];

const DRIVERS = ["pg", "@electric-sql/pglite"];
const BUILTINS = new Set(builtinModules);

// @incasso/NAME resolves to its source entry, @incasso/NAME/SUB to src/SUB.ts, as in
// vitest.config.ts, so a kernel import of a node-only subpath is seen, not hidden behind dist.
const workspaceSources: Plugin = {
  name: "workspace-sources",
  setup(b) {
    b.onResolve({ filter: /^@incasso\// }, (args) => {
      const [, name = "", sub] = /^@incasso\/([^/]+)(?:\/(.+))?$/.exec(args.path) ?? [];
      const path = `${root}packages/${name}/src/${sub ?? "index"}.ts`;
      return existsSync(path) ? { path } : undefined;
    });
  },
};

/** The imports left in an entry's bundle for a neutral platform, with `external` kept out. */
async function neutralImports(entry: string, external: string[], plugins: Plugin[] = []) {
  const result = await build({
    entryPoints: [`${root}${entry}`],
    bundle: true,
    write: false,
    outdir: "out",
    platform: "neutral",
    format: "esm",
    mainFields: ["module", "main"],
    external,
    plugins,
    metafile: true,
    logLevel: "silent",
  });
  return Object.values(result.metafile.outputs).flatMap((output) => output.imports);
}

/** The runtime imports an entry's neutral bundle keeps that tie it to Node or to a driver. */
async function forbiddenImports(entry: string): Promise<string[]> {
  // Listed as external so they show up in the output's imports instead of failing the build.
  const imports = await neutralImports(
    entry,
    ["node:*", ...BUILTINS, ...DRIVERS, ...DRIVERS.map((d) => `${d}/*`), "openai", "openai/*"],
    [workspaceSources],
  );
  const found: string[] = [];
  for (const { path, kind } of imports) {
    const bare = path.replace(/^node:/, "");
    const pkg = path.startsWith("@") ? path.split("/").slice(0, 2).join("/") : (path.split("/")[0] ?? "");
    if (path.startsWith("node:") || BUILTINS.has(bare)) found.push(`${path} (Node built-in, ${kind})`);
    else if (DRIVERS.includes(pkg)) found.push(`${path} (database driver, ${kind})`);
    else if (pkg === "openai" && kind !== "dynamic-import") found.push(`${path} (static openai, ${kind})`);
  }
  return found;
}

describe("runtime-neutral kernel", () => {
  it.each(ENTRIES)(
    "%s bundles for a neutral platform without Node built-ins, drivers or static openai",
    async (entry) => {
      expect(await forbiddenImports(entry)).toEqual([]);
    },
  );

  it("sees the Node built-ins of the node bridge, which is why they live behind @incasso/server/node", async () => {
    // Guards the test itself: the same check on the node subpath must find what it looks for.
    const found = await forbiddenImports("packages/server/src/node.ts");
    expect(found).toContain("node:http (Node built-in, import-statement)");
  });

  it("still sees openai, as a dynamic import, in pdf-guard's bundle", async () => {
    // Guards the test itself: were openai missing from the output, the check above would pass
    // without looking.
    const imports = await neutralImports("packages/pdf-guard/src/index.ts", ["node:*", "openai"]);
    expect(imports.filter((i) => i.path === "openai")).toEqual([
      { path: "openai", kind: "dynamic-import", external: true },
    ]);
  });
});
