import { describe, expect, it } from "vitest";
import { poolerSettings } from "./pooler-settings.js";

describe("poolerSettings", () => {
  it.each([
    [
      "pgbouncer=true: unnamed, declared, parameter removed",
      "postgres://app@db:5432/incasso?pgbouncer=true",
      undefined,
      { url: "postgres://app@db:5432/incasso", named: false, auto: false, declared: true },
    ],
    [
      "prepared_statements=false keeps the other parameters",
      "postgres://app@db:5432/incasso?sslmode=require&prepared_statements=false",
      undefined,
      { url: "postgres://app@db:5432/incasso?sslmode=require", named: false, auto: false, declared: false },
    ],
    [
      "prepared_statements=true wins over the pooler port",
      "postgres://app@db:6432/incasso?prepared_statements=true",
      undefined,
      { url: "postgres://app@db:6432/incasso", named: true, auto: false, declared: false },
    ],
    [
      "PgBouncer's port: unnamed, still auto",
      "postgres://app@db:6432/incasso",
      "auto",
      { url: "postgres://app@db:6432/incasso", named: false, auto: true, declared: false },
    ],
    [
      "a hosted transaction pooler's port: unnamed",
      "postgres://app@db:6543/incasso",
      undefined,
      { url: "postgres://app@db:6543/incasso", named: false, auto: true, declared: false },
    ],
    [
      "PostgreSQL's port: named, auto",
      "postgres://app@db:5432/incasso",
      undefined,
      { url: "postgres://app@db:5432/incasso", named: true, auto: true, declared: false },
    ],
    [
      "no port given (5432): named",
      "postgres://app@db/incasso",
      undefined,
      { url: "postgres://app@db/incasso", named: true, auto: true, declared: false },
    ],
    [
      "the option false wins over the URL",
      "postgres://app@db:5432/incasso?prepared_statements=true",
      false,
      { url: "postgres://app@db:5432/incasso", named: false, auto: false, declared: false },
    ],
    [
      "the option true, behind a declared pooler",
      "postgres://app@db:6432/incasso?pgbouncer=true",
      true,
      { url: "postgres://app@db:6432/incasso", named: true, auto: false, declared: true },
    ],
    [
      "a key=value string is left to the driver",
      "host=db port=6432 dbname=incasso",
      undefined,
      { url: "host=db port=6432 dbname=incasso", named: true, auto: true, declared: false },
    ],
  ] as const)("%s", (_name, url, option, expected) => {
    expect(poolerSettings(url, option)).toEqual(expected);
  });

  it("refuses a value that is not true or false", () => {
    expect(() => poolerSettings("postgres://app@db/incasso?pgbouncer=maybe", undefined)).toThrow(
      'The database URL parameter pgbouncer must be true or false, not "maybe".',
    );
  });
});

describe("openPostgresDatabase behind a declared pooler", () => {
  it("refuses a schema, which a transaction pooler cannot keep per connection", async () => {
    const { openPostgresDatabase } = await import("../postgres-database.js");
    await expect(
      openPostgresDatabase({ url: "postgres://app@127.0.0.1:1/incasso?pgbouncer=true", schema: "tenant_a" }),
    ).rejects.toThrow(
      "The schema option cannot be used behind a connection pooler (the URL says pgbouncer=true); set the search_path of the database role instead: ALTER ROLE … SET search_path = tenant_a.",
    );
  });
});
