// What `pnpm start` builds before the server (scripts/build-changed.mjs, issue 32 item 6): the
// JavaScript of the packages whose build is missing or stale, without declaration files, and
// nothing when nothing changed. Run on a copy of @incasso/wik in a workspace of its own, so the
// repository's dist folders are never touched.
import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const repo = new URL("../..", import.meta.url).pathname;
let root: string;

/** Runs the copied script in the temporary workspace; never rejects, returns the exit code. */
async function buildChanged(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [join(root, "scripts", "build-changed.mjs"), ...args],
      {
        cwd: root,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "incasso-start-build-"));
  mkdirSync(join(root, "scripts"));
  mkdirSync(join(root, "adapters"));
  cpSync(join(repo, "scripts", "build-changed.mjs"), join(root, "scripts", "build-changed.mjs"));
  for (const file of ["tsconfig.base.json", "tsup.config.json", "package.json"]) {
    cpSync(join(repo, file), join(root, file));
  }
  symlinkSync(join(repo, "node_modules"), join(root, "node_modules"));
  const wik = join(root, "packages", "wik");
  mkdirSync(wik, { recursive: true });
  for (const entry of ["src", "package.json", "tsconfig.json"]) {
    cpSync(join(repo, "packages", "wik", entry), join(wik, entry), { recursive: true });
  }
  symlinkSync(join(repo, "packages", "wik", "node_modules"), join(wik, "node_modules"));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("the build before `pnpm start`", () => {
  it("builds a package that was never built, its JavaScript only, and says so", async () => {
    const result = await buildChanged();
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^building packages \(first start only\): 1 packages, JavaScript only, about 15 s on a quiet machine…\nbuilt in \d+\.\d s; the next start builds only what changed\n$/,
    );
    expect(existsSync(join(root, "packages", "wik", "dist", "index.js"))).toBe(true);
    expect(existsSync(join(root, "packages", "wik", "dist", "index.d.ts"))).toBe(false);
  });

  it("builds nothing and prints nothing when nothing changed", async () => {
    expect(await buildChanged()).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await buildChanged("--check")).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("rebuilds a package whose sources changed, names it, and keeps its declaration files", async () => {
    // A full build of an hour ago (its declaration file included), then an edit of the sources.
    const dist = join(root, "packages", "wik", "dist");
    writeFileSync(join(dist, "index.d.ts"), "export {};\n");
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const file of readdirSync(dist)) utimesSync(join(dist, file), hourAgo, hourAgo);
    expect(await buildChanged("--check")).toEqual({
      code: 1,
      stdout: "@incasso/wik: sources changed\n",
      stderr: "",
    });
    const result = await buildChanged();
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^building 1 changed package\(s\): @incasso\/wik…\nbuilt in \d+\.\d s/);
    expect(readFileSync(join(dist, "index.d.ts"), "utf8")).toBe("export {};\n");
    // The older declaration file does not make the package look stale on the next start.
    expect(await buildChanged("--check")).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("shows the failing package's own output when its build fails", async () => {
    const source = join(root, "packages", "wik", "src", "index.ts");
    // An import that does not exist: esbuild refuses to bundle it.
    writeFileSync(source, 'export { nothing } from "./does-not-exist.js";\n');
    const later = new Date(Date.now() + 120_000);
    utimesSync(source, later, later);
    const result = await buildChanged();
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("building 1 changed package(s): @incasso/wik…\n");
    expect(result.stderr).toContain("@incasso/wik:\n");
    expect(result.stderr).toContain("does-not-exist");
    expect(result.stderr).toContain("the build of @incasso/wik failed (its output is above)\n");
  });
});
