import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { addFlags, type FlagSpec, readFlags } from "./flag-spec.js";

const SPECS: FlagSpec[] = [
  { name: "port", value: "N", env: "INCASSO_PORT", alsoEnv: ["PORT"], description: "port" },
  { name: "trust-proxy", env: "INCASSO_TRUST_PROXY", description: "proxy" },
  { name: "no-letter-runner", env: "INCASSO_NO_LETTER_RUNNER", description: "letters" },
  { name: "data-dir", value: "DIR", env: "INCASSO_DATA_DIR", envReadElsewhere: true, description: "dir" },
];

function parse(args: string[], env: Record<string, string>) {
  const command = addFlags(new Command("t").exitOverride(), SPECS);
  command.parse(args, { from: "user" });
  return readFlags(command, SPECS, env);
}

describe("readFlags", () => {
  it("takes the flag over its variable, the variable over the older one, and leaves absent values undefined", () => {
    expect(parse(["--port", "1"], { INCASSO_PORT: "2", PORT: "3" }).port).toBe("1");
    expect(parse([], { INCASSO_PORT: "2", PORT: "3" }).port).toBe("2");
    expect(parse([], { PORT: "3" }).port).toBe("3");
    expect(parse([], {})).toEqual({ port: undefined, "trust-proxy": false, "no-letter-runner": false });
  });

  it("reads switches from 1/true/yes/on and 0/false/no/off; a --no- switch is true when given", () => {
    expect(parse([], { INCASSO_TRUST_PROXY: "yes", INCASSO_NO_LETTER_RUNNER: "1" })).toMatchObject({
      "trust-proxy": true,
      "no-letter-runner": true,
    });
    expect(parse([], { INCASSO_TRUST_PROXY: "off" })["trust-proxy"]).toBe(false);
    expect(parse(["--no-letter-runner"], { INCASSO_NO_LETTER_RUNNER: "0" })["no-letter-runner"]).toBe(true);
    expect(() => parse([], { INCASSO_TRUST_PROXY: "maybe" })).toThrow(
      "INCASSO_TRUST_PROXY must be 1 or 0 (true or false), not maybe",
    );
  });

  it("leaves a variable read elsewhere to its reader (the storage target's order)", () => {
    expect(parse([], { INCASSO_DATA_DIR: "/srv" })["data-dir"]).toBeUndefined();
    expect(parse(["--data-dir", "/x"], { INCASSO_DATA_DIR: "/srv" })["data-dir"]).toBe("/x");
  });

  it("shows the variables and the default in the help", () => {
    const command = addFlags(new Command("t"), [
      {
        name: "port",
        value: "N",
        env: "INCASSO_PORT",
        alsoEnv: ["PORT"],
        defaultText: "3000",
        description: "port",
      },
    ]);
    expect(command.helpInformation()).toContain("--port <N>  port (env INCASSO_PORT, PORT; default 3000)");
  });
});
