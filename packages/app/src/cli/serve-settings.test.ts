import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { addFlags, readFlags } from "./flag-spec.js";
import { serveSettings } from "./serve.js";
import { SERVE_FLAGS } from "./serve-flags.js";

function settings(args: string[], env: Record<string, string>) {
  const command = addFlags(new Command("serve").exitOverride(), SERVE_FLAGS);
  command.parse(args, { from: "user" });
  return serveSettings(readFlags(command, SERVE_FLAGS, env), env);
}

describe("serveSettings: --refuse-active-pdf (decision pdf-guard-active-content)", () => {
  it("is off by default", () => {
    expect(settings([], {}).refuseActivePdf).toBe(false);
  });

  it("is on with the flag or with INCASSO_REFUSE_ACTIVE_PDF", () => {
    expect(settings(["--refuse-active-pdf"], {}).refuseActivePdf).toBe(true);
    expect(settings([], { INCASSO_REFUSE_ACTIVE_PDF: "1" }).refuseActivePdf).toBe(true);
    expect(settings([], { INCASSO_REFUSE_ACTIVE_PDF: "false" }).refuseActivePdf).toBe(false);
  });

  it("refuses a variable that is not a switch, naming it", () => {
    expect(() => settings([], { INCASSO_REFUSE_ACTIVE_PDF: "maybe" })).toThrow(
      "INCASSO_REFUSE_ACTIVE_PDF must be 1 or 0 (true or false), not maybe",
    );
  });
});
