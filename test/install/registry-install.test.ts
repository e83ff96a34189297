import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { newDataDir, PGLITE_CHILD_FLAGS } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalRegistry, publishWorkspace, startLocalRegistry } from "../../scripts/local-registry.mjs";

// Issue 32, item 1: the packages install by name, as a user installs them. The built workspace is
// published once to a local registry (verdaccio, scripts/local-registry.mjs) the way a release
// publishes it; then each README's install is done with plain npm in an empty folder and the
// README's example runs as written, TypeScript ones checked with tsc first. The examples are read
// from the READMEs, so a change there is tested here. Decision: packages-install-from-registry.
const root = fileURLToPath(new URL("../../", import.meta.url));
const CI = process.env.CI === "true";
const INSTALL_TIMEOUT = 600_000;

/** Why npm's registry cannot be reached from here, or undefined when it can. */
async function npmRegistryUnreachable(): Promise<string | undefined> {
  try {
    const answer = await fetch("https://registry.npmjs.org/-/ping", { signal: AbortSignal.timeout(15_000) });
    await answer.arrayBuffer();
    return answer.ok ? undefined : `the npm registry answered ${answer.status}`;
  } catch (error) {
    return `the npm registry cannot be reached: ${(error as Error).message}`;
  }
}

const unreachable = await npmRegistryUnreachable();
// CI proves the install; only a machine without the npm registry skips it.
if (unreachable && CI) throw new Error(`CI=true: ${unreachable}`);

/** The fenced code blocks of a Markdown file, each with its language and the heading above it. */
function codeBlocks(path: string): { heading: string; lang: string; code: string }[] {
  const blocks: { heading: string; lang: string; code: string }[] = [];
  let heading = "";
  let open: { heading: string; lang: string; code: string[] } | undefined;
  for (const line of readFileSync(join(root, path), "utf8").split("\n")) {
    if (open) {
      if (line.startsWith("```")) {
        blocks.push({ heading: open.heading, lang: open.lang, code: `${open.code.join("\n")}\n` });
        open = undefined;
      } else open.code.push(line);
    } else if (line.startsWith("```")) open = { heading, lang: line.slice(3).trim(), code: [] };
    else if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, "");
  }
  return blocks;
}

/** The one code block of `lang` under `heading` of a README; the test breaks if there is none or several. */
function readmeExample(path: string, heading: string, lang: string): string {
  const found = codeBlocks(path).filter((block) => block.heading === heading && block.lang === lang);
  expect(found.map((block) => `${path} § ${block.heading} (${block.lang})`)).toEqual([
    `${path} § ${heading} (${lang})`,
  ]);
  return found[0]?.code ?? "";
}

/** `text` with `from` replaced by `to`, which must occur exactly once. */
function replaceOnce(text: string, from: string, to: string): string {
  expect(text.split(from).length - 1, `"${from}" once in the example`).toBe(1);
  return text.replace(from, to);
}

/** True when the brackets of one line of code close on that line. */
function balanced(code: string): boolean {
  let depth = 0;
  for (const char of code.replace(/"(?:[^"\\]|\\.)*"/g, '""')) {
    if ("([{".includes(char)) depth++;
    else if (")]}".includes(char) && --depth < 0) return false;
  }
  return depth === 0;
}

/** A value a README writes in a comment, as JavaScript source: the whole comment or its first literal. */
function commentValue(comment: string, whole: boolean): string | undefined {
  try {
    new Function(`return (${comment});`);
    if (!/^[A-Za-z_$][\w$]*$/.test(comment.trim())) return `(${comment.trim()})`;
  } catch {}
  if (whole) return undefined;
  return /^(-?\d[\d_]*(?:\.\d+)?|"(?:[^"\\]|\\.)*"|true|false|null)(?=[\s:,;)]|$)/.exec(comment.trim())?.[1];
}

/**
 * The README example with each of its `expression; // value` lines (or a one-line expression with
 * the value in a comment on the next line) turned into a check that prints whether the expression
 * has that value: the values the README promises are what the installed package computes.
 */
function withValueChecks(code: string): { code: string; checked: string[] } {
  const lines = code.split("\n");
  const checked: string[] = [];
  const statement =
    /^(\s*)((?!const |let |var |import |export |return |await |\/\/)[^\s}\])].*?);(?:\s*\/\/\s*(.+))?$/;
  const out = lines.map((line, index) => {
    const match = statement.exec(line);
    if (!match || !balanced(match[2] ?? "")) return line;
    const [, indent = "", expression = "", sameLine] = match;
    const nextLine = /^\s*\/\/\s*(.+)$/.exec(lines[index + 1] ?? "")?.[1];
    const expected = sameLine
      ? commentValue(sameLine, false)
      : nextLine
        ? commentValue(nextLine, true)
        : undefined;
    if (expected === undefined) return line;
    checked.push(expression);
    return `${indent}__readmeCheck(${JSON.stringify(expression)}, ${expression}, ${expected});`;
  });
  const check = [
    'import { isDeepStrictEqual as __equal } from "node:util";',
    "function __readmeCheck(expression, actual, expected) {",
    '  console.log("readme-check " + JSON.stringify({ expression, ok: __equal(actual, expected), actual }));',
    "}",
  ];
  return { code: [...out, ...check].join("\n"), checked };
}

/** Runs a command to its end; rejects with its output when it fails. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = userEnv()) {
  return new Promise<string>((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: INSTALL_TIMEOUT },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new Error(
              `${command} ${args.join(" ")} failed in ${cwd}: ${error.message}\n${stdout}\n${stderr}`,
            ),
          );
        else resolve(stdout);
      },
    );
  });
}

/** The environment of a user's shell: none of the workspace's npm or pnpm settings, no incasso data. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_|npm_config_|INCASSO_|DATABASE_URL$|PORT$|NODE_OPTIONS$|VITEST|TEST_)/i.test(key))
      continue;
    env[key] = value;
  }
  return { ...env, NO_UPDATE_NOTIFIER: "1", npm_config_update_notifier: "false", ...extra };
}

/** A port free on 127.0.0.1 now. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  await once(server, "close");
  return typeof address === "object" && address ? address.port : 0;
}

/** The package lists of the README's `npm install` lines under Install, in order. */
function readmeInstalls(): string[][] {
  return codeBlocks("README.md")
    .filter((block) => block.heading === "Install" && block.lang === "sh")
    .flatMap((block) => block.code.split("\n"))
    .filter((line) => line.startsWith("npm install @incasso/"))
    .map((line) => line.replace(/#.*$/, "").trim().split(/\s+/).slice(2));
}

let registry: LocalRegistry | undefined;
let published: { name: string; version: string }[] = [];
let installs: Record<"express" | "client" | "app" | "fastify" | "libraries", Promise<Installed>> | undefined;

/** The install a test uses, begun in beforeAll. */
function installed(name: keyof NonNullable<typeof installs>): Promise<Installed> {
  if (!installs) throw new Error("the packages were not published");
  return installs[name];
}
const folders: string[] = [];
const children: ChildProcess[] = [];

/** An empty folder, as a user starts in. */
function emptyFolder(name: string): string {
  const folder = mkdtempSync(join(tmpdir(), `incasso-install-${name}-`));
  folders.push(folder);
  return folder;
}

/** `npm install` with the registry's URL, as the README's install line says, plus `extra`. */
async function npmInstall(folder: string, names: string[], extra: string[] = []) {
  const url = registry?.url ?? "";
  await run("npm", ["install", "--registry", url, "--no-audit", "--no-fund", ...extra, ...names], folder);
  const lock = JSON.parse(readFileSync(join(folder, "package-lock.json"), "utf8")) as { packages: Lock };
  return lock.packages;
}

type Lock = Record<string, { version?: string; resolved?: string }>;
/** An empty folder with a README's packages installed, and npm's lock of them. */
type Installed = { folder: string; lock: Lock };

/**
 * Begins a README's install (its packages, then the TypeScript tools a typed example needs) in an
 * empty folder. The installs of all tests are begun together once the registry holds the packages:
 * npm spends much of an install waiting on a registry, so they take little longer side by side than
 * one alone. A failure is reported by the test that awaits it.
 */
function beginInstall(name: string, names: string[], devNames: string[] = []): Promise<Installed> {
  const folder = emptyFolder(name);
  const installed = (async () => {
    const lock = await npmInstall(folder, names);
    if (devNames.length > 0) await npmInstall(folder, devNames, ["--save-dev"]);
    return { folder, lock };
  })();
  installed.catch(() => undefined);
  return installed;
}

/** Checks a TypeScript example with tsc as a user's project would (strict, NodeNext) and emits it. */
async function typeCheck(folder: string, file: string) {
  writeFileSync(
    join(folder, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        skipLibCheck: true,
        types: ["node"],
        outDir: "out",
      },
      files: [file],
    }),
  );
  await run(join(folder, "node_modules/.bin/tsc"), ["-p", "tsconfig.json"], folder);
}

/** A host started from an example; its output, and the first key it showed. */
type Host = { child: ChildProcess; origin: string; output: () => string; firstKey: () => string | undefined };

async function startHost(folder: string, file: string, port: number): Promise<Host> {
  // The example's ./.data starts as a copy of a fresh cluster (newDataDir), as initdb is most of a
  // new directory's cost; a first start's initdb is test/docs/your-first-order.test.ts's subject.
  const seed = await newDataDir("incasso-install-data-");
  folders.push(seed);
  mkdirSync(join(folder, ".data"));
  renameSync(join(seed, "pglite"), join(folder, ".data", "pglite"));
  const child = spawn(process.execPath, [...PGLITE_CHILD_FLAGS, file], {
    cwd: folder,
    env: userEnv({ PORT: String(port) }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on("data", (chunk) => {
    output += String(chunk);
  });
  const origin = `http://127.0.0.1:${port}`;
  // Started once it answers; an exit before that fails with what it printed.
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the host exited (${child.exitCode}):\n${output}`);
    const answer = await fetch(`${origin}/api/v1/ping`).catch(() => undefined);
    if (answer) {
      await answer.arrayBuffer();
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    child,
    origin,
    output: () => output,
    firstKey: () => /"firstKey":"(svc_test_[A-Za-z0-9]{32})"/.exec(output)?.[1],
  };
}

/** Sends SIGTERM, as the examples expect, and resolves with how the process ended. */
async function stopHost(host: Host) {
  if (host.child.exitCode !== null) return { code: host.child.exitCode, signal: host.child.signalCode };
  const exited = once(host.child, "exit");
  host.child.kill("SIGTERM");
  const [code, signal] = await exited;
  return { code, signal };
}

const publicPackages = (() => {
  const names: string[] = [];
  for (const group of ["packages", "adapters"]) {
    for (const dir of readdirSync(join(root, group))) {
      const manifest = JSON.parse(readFileSync(join(root, group, dir, "package.json"), "utf8"));
      if (!manifest.private) names.push(manifest.name);
    }
  }
  return names.sort();
})();
const workspaceVersion = JSON.parse(readFileSync(join(root, "packages/app/package.json"), "utf8")).version;

beforeAll(async () => {
  if (unreachable) return;
  const unbuilt = publicPackages.filter((name) => {
    const dir =
      name === "@incasso/express" || name === "@incasso/fastify" || name === "@incasso/azure-functions"
        ? join(root, "adapters", name.slice("@incasso/".length))
        : join(root, "packages", name.slice("@incasso/".length));
    // The file the package's main entry names (most are dist/index.js; @incasso/test-utils
    // publishes dist/public.js).
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    return !existsSync(join(dir, manifest.exports["."].default));
  });
  expect(unbuilt, "packages without a build (run pnpm build first)").toEqual([]);
  registry = await startLocalRegistry();
  published = await publishWorkspace(registry.url);
  const [express = [], fastify = [], libraries = [], client = []] = readmeInstalls();
  installs = {
    express: beginInstall("express", express, ["typescript", "@types/node@20", "@types/express"]),
    client: beginInstall("client", client, ["typescript", "@types/node@20"]),
    app: beginInstall("app", ["@incasso/app"]),
    fastify: beginInstall("fastify", fastify),
    libraries: beginInstall("libraries", libraries),
  };
}, INSTALL_TIMEOUT);

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await registry?.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe("the packages installed by name from a registry", () => {
  it("are the README's installs", () => {
    expect(readmeInstalls()).toEqual([
      ["@incasso/app", "@incasso/express", "express"],
      ["@incasso/app", "@incasso/fastify", "fastify"],
      ["@incasso/wik", "@incasso/rol-router"],
      ["@incasso/client"],
    ]);
  });

  it("are every public package of the workspace, at its version, private ones left out", (ctx) => {
    if (unreachable) return ctx.skip(unreachable);
    expect(published.map(({ name }) => name).sort()).toEqual(publicPackages);
    expect(new Set(published.map(({ version }) => version))).toEqual(new Set([workspaceVersion]));
    // The examples are private; @incasso/test-utils is published for plugin authors.
    expect(published.map(({ name }) => name)).toContain("@incasso/test-utils");
    expect(published.map(({ name }) => name).filter((n) => n.startsWith("@incasso/example"))).toEqual([]);
  });

  let express: Host | undefined;

  it("@incasso/app @incasso/express express: the README's embedding example serves the API, pages, console and probes", {
    timeout: INSTALL_TIMEOUT,
  }, async (ctx) => {
    if (unreachable) return ctx.skip(unreachable);
    const example = readmeExample("README.md", "Embedding the API", "ts");
    const { folder, lock } = await installed("express");
    // Every @incasso package is this workspace's, at its version: the registry never asks npm's
    // registry for @incasso/* (scripts/local-registry.mjs), so none can come from elsewhere.
    const incasso = Object.entries(lock).filter(([path]) => path.includes("node_modules/@incasso/"));
    expect(incasso.map(([path, entry]) => [path, entry.version])).toEqual(
      incasso.map(([path]) => [path, workspaceVersion]),
    );
    expect(incasso.map(([path]) => path).sort()).toEqual(
      expect.arrayContaining([
        "node_modules/@incasso/app",
        "node_modules/@incasso/express",
        "node_modules/@incasso/server",
      ]),
    );

    const port = await freePort();
    writeFileSync(join(folder, "host.mts"), replaceOnce(example, "app.listen(3000)", `app.listen(${port})`));
    await typeCheck(folder, "host.mts");
    express = await startHost(folder, "out/host.mjs", port);
    const status = async (path: string) =>
      (await fetch(`${express?.origin}${path}`, { redirect: "manual" })).status;
    expect(await status("/healthz")).toBe(200);
    expect(await status("/api/v1/docs")).toBe(200);
    expect(await status("/tools")).toBe(200);
    expect(await status("/console/inloggen")).toBe(200);
    const anonymous = await fetch(`${express.origin}/api/v1/orders`);
    expect([anonymous.status, anonymous.headers.get("content-type")]).toEqual([
      401,
      "application/problem+json",
    ]);
    expect(express.output()).toContain(`incasso ready: the API at http://localhost:${port}/api/v1`);
    const key = express.firstKey();
    expect(key).toMatch(/^svc_test_[A-Za-z0-9]{32}$/);
    const ping = await fetch(`${express.origin}/api/v1/ping`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(ping.status).toBe(200);
    expect(await ping.json()).toMatchObject({ authenticated: true });
    const wik = await fetch(`${express.origin}/api/v1/tools/wik`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount_cents: 125_000, debtor_type: "business" }),
    });
    expect(wik.status).toBe(200);
    expect(await wik.json()).toMatchObject({ collection_costs_cents: 18750, total_amount_cents: 143750 });
  });

  it("@incasso/client: the README's quick start places an order with the first key and lists it", {
    timeout: INSTALL_TIMEOUT,
  }, async (ctx) => {
    if (unreachable) return ctx.skip(unreachable);
    if (!express) return expect.fail("the Express host of the test before did not start");
    const example = readmeExample("packages/client/README.md", "Quick start", "ts");
    const { folder } = await installed("client");
    writeFileSync(
      join(folder, "quick-start.mts"),
      replaceOnce(example, '"https://api.example.nl/api/v1"', JSON.stringify(`${express.origin}/api/v1`)),
    );
    await typeCheck(folder, "quick-start.mts");
    const output = await run(
      process.execPath,
      ["out/quick-start.mjs"],
      folder,
      userEnv({
        INCASSO_API_KEY: express.firstKey() ?? "",
      }),
    );
    const [placed = "", ...listed] = output.trim().split("\n");
    const id = placed.split(" ")[0];
    expect(id).toMatch(/^ord_[0-9a-f]{16}$/);
    const stored = await fetch(`${express.origin}/api/v1/orders/${id}`, {
      headers: { authorization: `Bearer ${express.firstKey()}` },
    });
    expect(stored.status).toBe(200);
    const order = (await stored.json()) as {
      total_amount_cents: number;
      case: { case_number: string | null };
    };
    // The id, the case number as the API gave it (null: the first key is a test key, as the
    // README's comment says), and 29 of the key's 30 orders a minute left.
    expect(order.case.case_number).toBeNull();
    expect(placed).toBe(`${id} null 29`);
    expect(listed).toEqual([`${id} ${order.total_amount_cents}`]);
  });

  it("the Express host stops on SIGTERM, as its last line says", { timeout: 120_000 }, async (ctx) => {
    if (unreachable) return ctx.skip(unreachable);
    if (!express) return expect.fail("the Express host did not start");
    expect(await stopHost(express)).toEqual({ code: 0, signal: null });
  });

  it("@incasso/app: its README's example serves the API with the listen it re-exports", {
    timeout: INSTALL_TIMEOUT,
  }, async (ctx) => {
    if (unreachable) return ctx.skip(unreachable);
    const example = readmeExample("packages/app/README.md", "@incasso/app", "js");
    const { folder } = await installed("app");
    const port = await freePort();
    writeFileSync(join(folder, "host.mjs"), replaceOnce(example, "port: 3000", `port: ${port}`));
    const host = await startHost(folder, "host.mjs", port);
    const key = host.firstKey();
    const ping = await fetch(`${host.origin}/api/v1/ping`, { headers: { authorization: `Bearer ${key}` } });
    expect(ping.status).toBe(200);
    expect(await stopHost(host)).toEqual({ code: 0, signal: null });
  });

  it("@incasso/fastify fastify: the README's example serves the API as a Fastify plugin", {
    timeout: INSTALL_TIMEOUT,
  }, async (ctx) => {
    if (unreachable) return ctx.skip(unreachable);
    const example = readmeExample("adapters/fastify/README.md", "@incasso/fastify", "js");
    const { folder } = await installed("fastify");
    const port = await freePort();
    writeFileSync(join(folder, "host.mjs"), replaceOnce(example, "port: 3000", `port: ${port}`));
    const host = await startHost(folder, "host.mjs", port);
    const key = host.firstKey();
    expect(key).toMatch(/^svc_test_[A-Za-z0-9]{32}$/);
    const ping = await fetch(`${host.origin}/api/v1/ping`, { headers: { authorization: `Bearer ${key}` } });
    expect(ping.status).toBe(200);
    expect(await ping.json()).toMatchObject({ authenticated: true });
    const malformed = await fetch(`${host.origin}/api/v1/%E0%A4%A`);
    expect([malformed.status, malformed.headers.get("content-type")]).toEqual([
      400,
      "application/problem+json",
    ]);
    expect(await stopHost(host)).toEqual({ code: 0, signal: null });
  });

  it("@incasso/wik @incasso/rol-router: the README examples compute the values their comments give", {
    timeout: INSTALL_TIMEOUT,
  }, async (ctx) => {
    if (unreachable) return ctx.skip(unreachable);
    const { folder, lock } = await installed("libraries");
    // The libraries bring zod and the Amsterdam time zone (@date-fns/tz), nothing else.
    expect(Object.keys(lock).filter(Boolean).sort()).toEqual([
      "node_modules/@date-fns/tz",
      "node_modules/@incasso/rol-router",
      "node_modules/@incasso/wik",
      "node_modules/zod",
    ]);
    const results: Record<
      string,
      { checked: string[]; lines: { expression: string; ok: boolean; actual: unknown }[] }
    > = {};
    for (const name of ["wik", "rol-router"]) {
      const { code, checked } = withValueChecks(readmeExample(`packages/${name}/README.md`, "Example", "js"));
      writeFileSync(join(folder, `${name}.mjs`), code);
      const output = await run(process.execPath, [`${name}.mjs`], folder);
      const lines = output
        .split("\n")
        .filter((line) => line.startsWith("readme-check "))
        .map((line) => JSON.parse(line.slice("readme-check ".length)));
      results[name] = { checked, lines };
    }
    expect(results.wik?.checked).toEqual([
      "calculation.collection_costs_cents",
      "calculation.interest.amount_cents",
      "calculation.total_amount_cents",
      "calculation.interest.beyond_rate_table",
      "calculateCollectionCosts(1_000_000, { includeVat: true })",
    ]);
    expect(results["rol-router"]?.checked).toEqual([
      "r.status",
      "r.rechtbank",
      "r.kantonlocatie",
      "r.maatgevende_letter",
      "r.betrouwbaarheid",
      'lookupRolRouter({ woonplaats: "Hengelo", naam: "Jansen" }, { today }).status',
      'lookupRolRouter({ woonplaats: "Hengelo", naam: "Jansen", provincie: "Gelderland" }, { today }).gemeente',
      'lookupRolRouter({ woonplaats: "Den Haag", naam: "de Vries" }, { today }).ontbrekend',
      'router.lookup({ woonplaats: "Leiden", naam: "Jansen" }, { today }).status',
    ]);
    for (const { checked, lines } of Object.values(results)) {
      expect(lines.map(({ expression }) => expression)).toEqual(checked);
      expect(lines.filter(({ ok }) => !ok)).toEqual([]);
    }
  });
});
