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

describe("serveSettings: the PostgreSQL time-outs (decision store-timeouts-and-keepalive)", () => {
  it("are the store's defaults when not set", () => {
    expect(settings([], {}).database).toEqual({});
  });

  it("come from the flags, else the INCASSO_DATABASE_* variables", () => {
    expect(
      settings(["--database-query-timeout", "2", "--database-connect-timeout", "3"], {
        INCASSO_DATABASE_QUERY_TIMEOUT: "9",
        INCASSO_DATABASE_STATEMENT_TIMEOUT: "5",
        INCASSO_DATABASE_KEEPALIVE: "20",
      }).database,
    ).toEqual({
      queryTimeoutMs: 2000,
      connectionTimeoutMs: 3000,
      statementTimeoutMs: 5000,
      keepAliveIdleMs: 20000,
    });
  });

  it("refuse a value that is not seconds with a usage error (exit 2)", () => {
    expect(() => settings(["--database-query-timeout", "soon"], {})).toThrow(
      expect.objectContaining({
        name: "UsageError",
        message:
          "--database-query-timeout (INCASSO_DATABASE_QUERY_TIMEOUT) must be a number of seconds (0 = off), not soon",
      }),
    );
  });
});

describe("serveSettings: --idempotency-lease (decision idempotency-lease-setting)", () => {
  it("leaves the API's default when not set", () => {
    expect(settings([], {}).idempotencyLeaseSeconds).toBeUndefined();
    expect(settings([], { INCASSO_IDEMPOTENCY_LEASE_SECONDS: "" }).idempotencyLeaseSeconds).toBeUndefined();
  });

  it("comes from the flag, else INCASSO_IDEMPOTENCY_LEASE_SECONDS; 5 to 3600 s", () => {
    expect(
      settings(["--idempotency-lease", "5"], { INCASSO_IDEMPOTENCY_LEASE_SECONDS: "60" })
        .idempotencyLeaseSeconds,
    ).toBe(5);
    expect(settings([], { INCASSO_IDEMPOTENCY_LEASE_SECONDS: "3600" }).idempotencyLeaseSeconds).toBe(3600);
  });

  it("refuses a value out of bounds or not whole seconds with a usage error (exit 2), naming both", () => {
    for (const bad of ["4", "3601", "7.5", "soon", "-5", "0"]) {
      expect(() => settings(["--idempotency-lease", bad], {})).toThrow(
        expect.objectContaining({
          name: "UsageError",
          message: `--idempotency-lease (INCASSO_IDEMPOTENCY_LEASE_SECONDS) must be a whole number of seconds from 5 to 3600, not ${bad}`,
        }),
      );
    }
    expect(() => settings([], { INCASSO_IDEMPOTENCY_LEASE_SECONDS: "2" })).toThrow(
      "--idempotency-lease (INCASSO_IDEMPOTENCY_LEASE_SECONDS) must be a whole number of seconds from 5 to 3600, not 2",
    );
  });
});
