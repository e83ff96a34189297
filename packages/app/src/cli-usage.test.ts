import { execFileSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliProcesses, newDataDir } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pkg from "../package.json" with { type: "json" };

// Issue 17, items 5 and 7, against real `incasso` processes: help everywhere, exit codes, errors
// as JSON, the variables, completion and migrate (decisions cli-exit-codes and
// cli-configuration-variables).
const cli = cliProcesses();
let dir = "";
// Every test here may use it: made once, with its cluster initialised.
beforeAll(async () => {
  dir = await newDataDir("incasso-usage-");
});
afterAll(() => {
  cli.killAll("SIGKILL");
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const hasZsh = ["/usr/bin/zsh", "/bin/zsh"].some((p) => existsSync(p));

describe("incasso usage", () => {
  it("answers --help on commands and subcommands with exit 0, within 80 columns", {
    timeout: 90_000,
  }, async () => {
    for (const args of [["serve"], ["keys", "create"], ["udf"], ["cases", "pay"], ["worker"]]) {
      const result = await cli.run([...args, "--help"]);
      expect(result.code, args.join(" ")).toBe(0);
      expect(result.err).toBe("");
      expect(result.out).toMatch(new RegExp(`^Usage: incasso ${args.join(" ")} `));
      for (const line of result.out.split("\n")) expect(line.length).toBeLessThanOrEqual(80);
    }
    const helpCommand = await cli.run(["help", "keys"]);
    expect(helpCommand.code).toBe(0);
    expect(helpCommand.out).toMatch(/^Usage: incasso keys \[options\] \[command\]\n/);
    const version = await cli.run(["--version"]);
    expect(version).toEqual({ code: 0, out: `${pkg.version}\n`, err: "" });
    const serve = await cli.run(["serve", "--help"]);
    expect(serve.out).toContain("--trust-proxy");
    // Read as one line: where the help wraps depends on its longest flag.
    expect(serve.out.replace(/\s+/g, " ")).toContain("(env INCASSO_PORT, PORT; default 3000)");
  });

  it("prints the help and exits with the usage code when no command is given", {
    timeout: 90_000,
  }, async () => {
    const bare = await cli.run([]);
    expect(bare.code).toBe(2);
    expect(bare.out).toBe("");
    expect(bare.err).toMatch(/^Usage: incasso \[options\] \[command\]\n/);
    expect(bare.err).toContain("Exit codes: 0 ok, 1 failure, 2 usage, 3 not found, 4 conflict.");
    const group = await cli.run(["keys"]);
    expect(group.code).toBe(2);
    expect(group.err).toMatch(/^Usage: incasso keys \[options\] \[command\]\n/);
  });

  it("refuses a negative amount with a clear message before opening anything", {
    timeout: 90_000,
  }, async () => {
    const result = await cli.run(["cases", "pay", "2026-000001", "--amount-cents", "-5", "--data-dir", dir]);
    expect(result).toEqual({
      code: 2,
      out: "",
      err: "incasso: --amount-cents must be a positive whole number of cents (1 or more); -5 is negative\n",
    });
  });

  it("with --json writes errors as problems with the API's codes, and exits by kind", {
    timeout: 90_000,
  }, async () => {
    const unknownKey = await cli.run(["keys", "revoke", "key_0000000000000000", "--json", "--data-dir", dir]);
    expect(unknownKey.code).toBe(3);
    expect(unknownKey.out).toBe("");
    expect(JSON.parse(unknownKey.err)).toEqual({
      type: "https://incasso.dev/problems/key_not_found",
      title: "Not Found",
      status: 404,
      code: "key_not_found",
      detail: "No API key with id key_0000000000000000.",
      exit_code: 3,
    });
    const unknownFlag = await cli.run(["keys", "list", "--frobnicate", "--json"]);
    expect(unknownFlag.code).toBe(2);
    expect(JSON.parse(unknownFlag.err)).toEqual({
      type: "https://incasso.dev/problems/usage_error",
      title: "Bad Request",
      status: 400,
      code: "usage_error",
      detail: "unknown option '--frobnicate'",
      exit_code: 2,
    });
    const badMode = await cli.run(["keys", "create", "--organisation", "X", "--mode", "prod", "--json"]);
    expect(badMode.code).toBe(2);
    expect(JSON.parse(badMode.err)).toMatchObject({
      code: "validation_error",
      status: 422,
      detail: "--mode must be live or test, not prod",
    });
    // Without --json the same error is one line; the command's help is named.
    const plain = await cli.run(["keys", "list", "--frobnicate"]);
    expect(plain).toMatchObject({
      code: 2,
      err: "incasso: unknown option '--frobnicate'\n(incasso keys list --help shows its usage)\n",
    });
  });

  it("reads settings from INCASSO_* variables, and the flag wins", { timeout: 90_000 }, async () => {
    const fromVariable = await cli.run(["serve", "--data-dir", dir], { INCASSO_PORT: "70000" });
    expect(fromVariable).toMatchObject({
      code: 2,
      err: "incasso: --port must be an integer from 0 to 65535, not 70000\n",
    });
    const flagWins = await cli.run(["serve", "--port", "70001", "--data-dir", dir], { INCASSO_PORT: "1" });
    expect(flagWins.err).toBe("incasso: --port must be an integer from 0 to 65535, not 70001\n");
    const badSwitch = await cli.run(["serve", "--data-dir", dir], { INCASSO_TRUST_PROXY: "sure" });
    expect(badSwitch).toMatchObject({
      code: 2,
      err: "incasso: INCASSO_TRUST_PROXY must be 1 or 0 (true or false), not sure\n",
    });
  });

  it("migrate says what it applied, and up to date only when nothing was", { timeout: 60_000 }, async () => {
    const fresh = join(dir, "fresh");
    const first = await cli.run(["migrate"], { INCASSO_DATA_DIR: fresh });
    expect(first.code).toBe(0);
    expect(first.out).toMatch(new RegExp(`^Applied \\d+ migrations \\(1, [0-9, ]+\\) to ${fresh}\\.\\n$`));
    const again = await cli.run(["migrate", "--json", "--data-dir", fresh]);
    expect(JSON.parse(again.out)).toEqual({ applied: [], target: fresh });
    const text = await cli.run(["migrate", "--data-dir", fresh]);
    expect(text.out).toBe(`The schema is up to date (${fresh}).\n`);
  });

  it("prints bash and zsh completion that completes commands and flags", { timeout: 90_000 }, async () => {
    const bash = await cli.run(["completion", "bash"]);
    expect(bash.code).toBe(0);
    const script = join(dir, "incasso.bash");
    writeFileSync(script, bash.out);
    const complete = (shell: string, words: string[]) =>
      execFileSync(
        shell,
        [
          "-c",
          `source ${script}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _incasso; echo "\${COMPREPLY[@]}"`,
        ],
        { encoding: "utf8" },
      ).trim();
    expect(complete("bash", ["incasso", "ke"])).toBe("keys");
    expect(complete("bash", ["incasso", "keys", ""])).toBe("create list revoke --help");
    expect(complete("bash", ["incasso", "keys", "create", "--organisation", "Acme", "--m"])).toBe("--mode");
    expect(complete("bash", ["incasso", "completion", ""])).toBe("bash zsh");

    const zsh = await cli.run(["completion", "zsh"]);
    expect(zsh.code).toBe(0);
    expect(zsh.out).toContain("autoload -U +X bashcompinit && bashcompinit");
    expect(zsh.out).toContain("complete -o default -F _incasso incasso");
    const wrong = await cli.run(["completion", "fish"]);
    expect(wrong).toMatchObject({ code: 2, err: "incasso: completion takes bash or zsh, not fish\n" });
  });

  it.skipIf(!hasZsh)(
    "the zsh script loads in zsh and registers the completion",
    { timeout: 30_000 },
    async () => {
      const zsh = await cli.run(["completion", "zsh"]);
      const script = join(dir, "incasso.zsh");
      writeFileSync(script, zsh.out);
      const out = execFileSync("zsh", ["-f", "-c", `source ${script}; print -r -- $_comps[incasso]`], {
        encoding: "utf8",
        env: { ...process.env, HOME: dir },
      });
      expect(out.trim()).toMatch(/_bash_complete/);
    },
  );
});
