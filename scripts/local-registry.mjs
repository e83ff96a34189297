#!/usr/bin/env node
// A local npm registry to install the packages by name before (or without) a public release:
// verdaccio on a loopback port, the workspace's public packages published to it the way a release
// publishes them (pnpm's publish, which packs each package and turns `workspace:*` into the
// released version), every other package passed through from the npm registry.
//
//   node scripts/local-registry.mjs            start it, publish the built packages, print how to
//                                              install from it; Ctrl-C stops it
//   node scripts/local-registry.mjs --no-publish   start it only
//
// The @incasso packages live in a temp folder of this run and go with it. Third-party packages
// fetched from the npm registry are kept in a cache folder under the system temp folder
// (INCASSO_REGISTRY_CACHE to choose another), shared between runs, so a second run does not fetch
// them again. Decision: docs/decisions/packages-install-from-registry.md.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SERVE_FLAG = "--serve-config";

/** The folder that keeps the third-party packages fetched through the registry between runs. */
function registryCacheFolder() {
  return process.env.INCASSO_REGISTRY_CACHE ?? join(tmpdir(), "incasso-registry-cache");
}

/**
 * Starts verdaccio in a child process on 127.0.0.1 and a free port.
 *
 * @param {{ upstream?: string, log?: (line: string) => void }} [options]
 * @returns {Promise<{ url: string, folder: string, stop: () => Promise<void> }>}
 * @example
 * const registry = await startLocalRegistry();
 * await publishWorkspace(registry.url); // then: npm install --registry <registry.url> @incasso/app
 * await registry.stop();
 */
export async function startLocalRegistry(options = {}) {
  const folder = mkdtempSync(join(tmpdir(), "incasso-registry-"));
  const cache = registryCacheFolder();
  mkdirSync(cache, { recursive: true });
  const own = join(folder, "storage");
  mkdirSync(own, { recursive: true });
  // JSON is YAML: verdaccio reads this file as its config.yaml.
  const config = {
    // The run's own storage: what is published here, and verdaccio's list of it.
    storage: own,
    self_path: join(folder, "config.yaml"),
    uplinks: {
      npmjs: {
        url: options.upstream ?? "https://registry.npmjs.org/",
        timeout: "60s",
        maxage: "30m",
        max_fails: 5,
        cache: true,
      },
    },
    packages: {
      // Never proxied: only what this workspace publishes is installed under this name.
      "@incasso/*": { access: "$all", publish: "$all", unpublish: "$all" },
      // Verdaccio joins a rule's `storage` to the one above: a relative path to the shared cache.
      "**": { access: "$all", publish: "$authenticated", proxy: "npmjs", storage: relative(own, cache) },
    },
    auth: { htpasswd: { file: join(folder, "htpasswd"), max_users: -1 } },
    web: { enable: false },
    max_body_size: "100mb",
    logs: { type: "stdout", format: "pretty", level: "error" },
  };
  writeFileSync(config.self_path, JSON.stringify(config, null, 2));
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), SERVE_FLAG, config.self_path], {
    cwd: folder,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = options.log ?? (() => {});
  const stderr = [];
  child.stderr.on("data", (chunk) => stderr.push(String(chunk)));
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolveUrl, reject) => {
    const onExit = (code) =>
      reject(new Error(`verdaccio exited (${code}) before it listened: ${stderr.join("").trim()}`));
    child.once("exit", onExit);
    lines.on("line", (line) => {
      const match = /^local registry listening: (http:\/\/\S+)$/.exec(line);
      if (match) {
        child.off("exit", onExit);
        resolveUrl(match[1]);
      } else log(line);
    });
  });
  let stopped;
  const stop = () => {
    stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, "exit");
        child.kill("SIGTERM");
        await exited;
      }
      lines.close();
      rmSync(folder, { recursive: true, force: true });
    })();
    return stopped;
  };
  return { url, folder, stop };
}

/** The command that runs this workspace's pnpm: the running one, else the pinned one through npx. */
function pnpmCommand() {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/.test(execPath)) {
    return execPath.endsWith(".js") || execPath.endsWith(".cjs") ? [process.execPath, execPath] : [execPath];
  }
  const { packageManager } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  return ["npx", "-y", packageManager];
}

/**
 * Publishes every public package of the workspace (built beforehand) to `registryUrl` in one
 * recursive publish, with a throwaway token in a temp .npmrc. Resolves with the names and
 * versions published.
 *
 * @param {string} registryUrl
 * @returns {Promise<Array<{ name: string, version: string }>>}
 * @example
 * const published = await publishWorkspace("http://127.0.0.1:4873/");
 * // [{ name: "@incasso/pdf-guard", version: "0.0.0" }, …]
 */
export async function publishWorkspace(registryUrl) {
  const folder = mkdtempSync(join(tmpdir(), "incasso-publish-"));
  try {
    // The token only satisfies npm's and pnpm's check that one is set: the registry lets anyone
    // publish @incasso/* (see startLocalRegistry).
    const npmrc = join(folder, ".npmrc");
    const host = registryUrl.replace(/^https?:/, "").replace(/\/?$/, "/");
    writeFileSync(npmrc, `registry=${registryUrl}\n${host}:_authToken=local-registry-throwaway\n`);
    const env = { ...process.env, npm_config_userconfig: npmrc };
    // The registry of a calling pnpm or npm run would win over the .npmrc.
    for (const key of Object.keys(env)) if (/^npm_config_registry$/i.test(key)) delete env[key];
    const [command, ...args] = pnpmCommand();
    // --report-summary writes pnpm-publish-summary.json (what was published) at the root.
    const child = spawn(
      command,
      [
        ...args,
        "-r",
        "publish",
        "--registry",
        registryUrl,
        "--access",
        "public",
        "--tag",
        "latest",
        "--no-git-checks",
        "--report-summary",
      ],
      { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] },
    );
    const output = [];
    child.stdout.on("data", (chunk) => output.push(String(chunk)));
    child.stderr.on("data", (chunk) => output.push(String(chunk)));
    const [code] = await once(child, "exit");
    if (code !== 0) throw new Error(`publishing to ${registryUrl} failed (${code}):\n${output.join("")}`);
    const summary = join(root, "pnpm-publish-summary.json");
    const { publishedPackages } = JSON.parse(readFileSync(summary, "utf8"));
    rmSync(summary, { force: true });
    return publishedPackages.map(({ name, version }) => ({ name, version }));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The child: verdaccio itself, in this process, until SIGTERM or SIGINT. */
async function serve(configPath) {
  const { runServer } = await import("verdaccio");
  const server = await runServer(configPath);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address();
  process.stdout.write(`local registry listening: http://127.0.0.1:${port}/\n`);
  const close = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections?.();
  };
  process.once("SIGTERM", close);
  process.once("SIGINT", close);
}

async function main(argv) {
  const registry = await startLocalRegistry({ log: (line) => console.log(line) });
  const stop = () => void registry.stop().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  console.log(`local registry at ${registry.url} (Ctrl-C stops it and removes what was published)`);
  if (!argv.includes("--no-publish")) {
    const started = Date.now();
    const published = await publishWorkspace(registry.url);
    console.log(
      `published ${published.length} packages in ${((Date.now() - started) / 1000).toFixed(1)} s: ${published
        .map(({ name, version }) => `${name}@${version}`)
        .join(", ")}`,
    );
  }
  console.log(`install from it in any folder: npm install --registry ${registry.url} @incasso/app`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === SERVE_FLAG) await serve(process.argv[3]);
  else await main(process.argv.slice(2));
}
