import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Issue 32, item 4: the kernel is runtime-neutral as published, not only in its sources. The
// kernel's packages are packed as a release packs them (`npm pack`: the files their manifests
// list, the built dist) and laid out as an install would, and each main entry is bundled for
// esbuild's neutral platform by name, through the packed manifests' exports. runtime-neutral.test.ts
// checks the sources; this sees what tsup made of them (a shared chunk that pulls in a node-only
// module, a `node:` prefix rewritten to a bare `crypto`). Needs `pnpm build` first, as the
// README's test command does.
const root = fileURLToPath(new URL("../../../", import.meta.url));
const BUILTINS = new Set(builtinModules);

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
}

const manifest = (name: string): Manifest =>
  JSON.parse(readFileSync(join(root, "packages", name, "package.json"), "utf8")) as Manifest;

/** @incasso/server and every @incasso package it depends on, directly or not. */
function kernelPackages(): string[] {
  const found = new Set<string>();
  const visit = (name: string) => {
    if (found.has(name)) return;
    found.add(name);
    for (const dep of Object.keys(manifest(name).dependencies ?? {})) {
      if (dep.startsWith("@incasso/")) visit(dep.slice("@incasso/".length));
    }
  };
  visit("server");
  return [...found].sort();
}

const KERNEL = kernelPackages();
let install = "";

beforeAll(() => {
  install = mkdtempSync(join(tmpdir(), "incasso-neutral-dist-"));
  const modules = join(install, "node_modules");
  for (const name of KERNEL) {
    if (!existsSync(join(root, "packages", name, "dist", "index.js"))) {
      throw new Error(`packages/${name}/dist is missing: run \`pnpm build\` before this test`);
    }
  }
  // One npm process packs them all: the files each manifest lists, as a release packs them.
  const packed = JSON.parse(
    execFileSync(
      "npm",
      [
        "pack",
        "--json",
        "--pack-destination",
        install,
        ...KERNEL.map((name) => join(root, "packages", name)),
      ],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    ),
  ) as { name: string; filename: string }[];
  for (const { name: fullName, filename } of packed) {
    const name = fullName.slice("@incasso/".length);
    const target = join(modules, "@incasso", name);
    mkdirSync(target, { recursive: true });
    execFileSync("tar", ["-xzf", join(install, filename), "-C", target, "--strip-components=1"]);
    // The third-party dependencies as the workspace installed them, beside the packed packages.
    for (const dep of Object.keys(manifest(name).dependencies ?? {})) {
      const link = join(modules, dep);
      if (dep.startsWith("@incasso/") || existsSync(link)) continue;
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(realpathSync(join(root, "packages", name, "node_modules", dep)), link, "dir");
    }
  }
}, 120_000);

afterAll(() => {
  if (install) rmSync(install, { recursive: true, force: true });
});

/** The Node built-ins a neutral bundle of `import * from specifier` keeps, as `path (kind)`. */
async function builtinsIn(specifier: string): Promise<string[]> {
  const result = await build({
    stdin: { contents: `export * from "${specifier}";`, resolveDir: install, loader: "js" },
    bundle: true,
    write: false,
    outdir: join(install, "out"),
    platform: "neutral",
    format: "esm",
    mainFields: ["module", "main"],
    // Listed as external so they show up in the output's imports instead of failing the build.
    external: ["node:*", ...BUILTINS, "openai", "openai/*"],
    metafile: true,
    logLevel: "silent",
  });
  return Object.values(result.metafile.outputs)
    .flatMap((output) => output.imports)
    .filter(({ path }) => path.startsWith("node:") || BUILTINS.has(path))
    .map(({ path, kind }) => `${path} (${kind})`);
}

describe("runtime-neutral kernel, as packed", () => {
  it("packs the kernel: server and the packages below it", () => {
    expect(KERNEL).toEqual(["core", "pdf-guard", "rol-router", "server", "webhook-signing", "wik"]);
  });

  it.each(["server", "core", "pdf-guard", "wik", "rol-router"])(
    "@incasso/%s from its packed dist bundles for a neutral platform without a Node built-in",
    async (name) => {
      expect(await builtinsIn(`@incasso/${name}`)).toEqual([]);
    },
    60_000,
  );

  it("bundles the kernel's entry of @incasso/webhook-signing, /events, without a Node built-in", async () => {
    expect(await builtinsIn("@incasso/webhook-signing/events")).toEqual([]);
  });

  it("sees node:crypto, prefix kept, in webhook-signing's main entry, which is why the kernel imports /events", async () => {
    // Guards the test itself, and the build: tsup left to its default writes `crypto` for
    // `node:crypto`, which a neutral bundler takes for a package (tsup.config.json).
    expect(await builtinsIn("@incasso/webhook-signing")).toEqual([
      "node:crypto (import-statement)",
      "node:crypto (import-statement)",
    ]);
  });
});
