import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";

// Issue 32, item 2: the package ships RapiDoc's bundle, so a host installs no rapidoc.
const dir = new URL("../", import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
const out = mkdtempSync(join(tmpdir(), "incasso-rapidoc-copy-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("RapiDoc's bundle in @incasso/pages", () => {
  it("has rapidoc as a devDependency only, pinned, and copies it in its build", () => {
    expect(manifest.dependencies).toEqual({ "@incasso/server": "workspace:*" });
    expect(manifest.devDependencies).toEqual({ rapidoc: "9.3.8" });
    expect(manifest.scripts.build).toMatch(/&& node scripts\/copy-rapidoc\.mjs$/);
    expect(manifest.files).toEqual(["dist", "assets"]);
  });

  it("copies the bundle unchanged, its licence files, and a record of its name, version and licence", () => {
    execFileSync(process.execPath, [join(dir, "scripts/copy-rapidoc.mjs"), out], { stdio: "ignore" });
    expect(readdirSync(out).sort()).toEqual([
      "LICENSE.txt",
      "rapidoc-min.js",
      "rapidoc-min.js.LICENSE.txt",
      "rapidoc-min.js.br",
      "rapidoc-min.js.gz",
      "rapidoc.json",
    ]);
    expect(JSON.parse(readFileSync(join(out, "rapidoc.json"), "utf8"))).toEqual({
      name: "rapidoc",
      version: "9.3.8",
      license: "MIT",
      homepage: "https://rapidocweb.com",
      files: ["rapidoc-min.js", "rapidoc-min.js.LICENSE.txt", "LICENSE.txt"],
      compressed: ["rapidoc-min.js.br", "rapidoc-min.js.gz"],
    });
    const installed = createRequire(join(dir, "package.json")).resolve("rapidoc/dist/rapidoc-min.js");
    expect(readFileSync(join(out, "rapidoc-min.js")).equals(readFileSync(installed))).toBe(true);
    expect(readFileSync(join(out, "LICENSE.txt"), "utf8")).toContain("MIT License");
    // The codings made at build time are the bundle, compressed.
    const bundle = readFileSync(installed);
    expect(brotliDecompressSync(readFileSync(join(out, "rapidoc-min.js.br"))).equals(bundle)).toBe(true);
    expect(gunzipSync(readFileSync(join(out, "rapidoc-min.js.gz"))).equals(bundle)).toBe(true);
  });
});
