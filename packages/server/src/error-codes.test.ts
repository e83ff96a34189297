import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ApiError } from "./api-error.js";
import { codesWithStatus, ERROR_CODES, problemCodeDescription, statusOfCode } from "./error-codes.js";
import { CORE_ERROR_STATUS, ORDER_ENGINE_ERROR_STATUS } from "./error-status.js";
import { buildOpenApiDocument } from "./openapi.js";
import { pingPlugin } from "./plugins/ping.js";

const decisions = fileURLToPath(new URL("../../../docs/decisions/", import.meta.url));

describe("ERROR_CODES, the one code table", () => {
  it("has every code of the spec's Errors table with the spec's status", () => {
    const spec: Record<string, number> = {
      invalid_json: 400,
      empty_body: 400,
      unauthorized: 401,
      creditor_feature_disabled: 403,
      not_found: 404,
      method_not_allowed: 405,
      idempotency_conflict: 409,
      creditor_exists: 409,
      payload_too_large: 413,
      unsupported_media_type: 415,
      validation_error: 422,
      invalid_attachment: 422,
      wik_letter_required: 422,
      amount_too_high: 422,
      unknown_creditor: 422,
      rate_limited: 429,
      upstream_error: 502,
    };
    for (const [code, status] of Object.entries(spec)) {
      expect([code, statusOfCode(code)]).toEqual([code, status]);
      expect([code, ERROR_CODES[code as keyof typeof ERROR_CODES].source]).toEqual([code, "spec"]);
    }
  });

  it("names for every other code a decision record that exists", () => {
    for (const [code, row] of Object.entries(ERROR_CODES)) {
      if (row.source === "spec") continue;
      expect([code, existsSync(`${decisions}${row.source}.md`)]).toEqual([code, true]);
    }
  });

  it("gives the core and order-engine status tables from its rows", () => {
    expect(CORE_ERROR_STATUS).toEqual({
      creditor_exists: 409,
      creditor_feature_disabled: 403,
      organisation_not_found: 404,
      organisation_conflict: 409,
      key_not_found: 404,
      invalid_key_settings: 422,
      invalid_udf_field: 422,
      udf_field_not_found: 404,
      invalid_cursor: 422,
    });
    expect(ORDER_ENGINE_ERROR_STATUS).toEqual({
      validation_error: 422,
      amount_too_high: 422,
      wik_letter_required: 422,
      invalid_attachment: 422,
      unknown_creditor: 422,
      creditor_feature_disabled: 403,
      not_found: 404,
      order_has_no_case: 409,
      test_key_on_live_order: 409,
      idempotency_conflict: 409,
      upstream_error: 502,
      attachment_check_unavailable: 503,
    });
  });

  it("answers undefined for a code it does not hold, inherited names included", () => {
    expect(statusOfCode("no_such_code")).toBeUndefined();
    expect(statusOfCode("__proto__")).toBeUndefined();
    expect(statusOfCode("toString")).toBeUndefined();
  });

  it("lists the codes of one status in table order", () => {
    expect(codesWithStatus(405)).toEqual(["method_not_allowed"]);
    expect(codesWithStatus(503)).toEqual([
      "service_unavailable",
      "server_busy",
      "attachment_check_unavailable",
      "not_ready",
    ]);
    expect(codesWithStatus(418)).toEqual([]);
  });

  it("is where an ApiError without a status takes its status from", () => {
    expect(new ApiError({ code: "rate_limited", detail: "Slow down." }).status).toBe(429);
    expect(new ApiError({ code: "not_in_table", detail: "?" }).status).toBe(500);
    expect(new ApiError({ status: 400, code: "rate_limited", detail: "Own status." }).status).toBe(400);
  });
});

describe("the OpenAPI document's problem codes", () => {
  it("describes the Problem's code with every row of the table, by status", () => {
    const description = problemCodeDescription();
    const lines = description.split("\n");
    expect(lines.slice(0, 4)).toEqual([
      "Machine-readable code. The API's codes:",
      "",
      "| code | status | when |",
      "|---|---|---|",
    ]);
    expect(lines).toHaveLength(4 + Object.keys(ERROR_CODES).length);
    expect(lines[4]).toBe("| `invalid_json` | 400 | The body is not valid JSON. |");
    expect(lines.at(-1)).toBe("| `not_ready` | 503 | The service cannot take traffic now (GET /readyz). |");
    expect(lines).toContain(
      "| `upstream_error` | 502 | The case system could not process the request; retry later. |",
    );
  });

  it("puts that description on the Problem schema of a built document", () => {
    const doc = buildOpenApiDocument({
      routes: pingPlugin().routes,
      basePath: "/api/v1",
      title: "t",
      version: "0.0.0",
    }) as unknown as { components: { schemas: { Problem: { properties: { code: unknown } } } } };
    expect(doc.components.schemas.Problem.properties.code).toEqual({
      type: "string",
      description: problemCodeDescription(),
    });
  });
});
