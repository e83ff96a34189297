import { describe, expect, it } from "vitest";
import { cliProblem, EXIT_CODES } from "./exit-codes.js";
import { UsageError } from "./usage-error.js";

const coded = (code: string, message = "m") => Object.assign(new Error(message), { code });

describe("cliProblem", () => {
  it("keeps the API's problem code and maps it to a status and an exit code", () => {
    expect(cliProblem(coded("case_not_found", "No case 2026-000009."))).toEqual({
      type: "https://incasso.dev/problems/case_not_found",
      title: "Not Found",
      status: 404,
      code: "case_not_found",
      detail: "No case 2026-000009.",
      exit_code: 3,
    });
    expect(cliProblem(coded("task_not_open"))).toMatchObject({ status: 409, exit_code: 4 });
    expect(cliProblem(coded("invalid_webhook_url"))).toMatchObject({ status: 422, exit_code: 2 });
    // Issue 19: operators and letter details.
    expect(cliProblem(coded("operator_not_found"))).toMatchObject({ status: 404, exit_code: 3 });
    expect(cliProblem(coded("invalid_operator"))).toMatchObject({ status: 422, exit_code: 2 });
    expect(cliProblem(coded("invalid_letter_details"))).toMatchObject({ status: 422, exit_code: 2 });
    expect(cliProblem(coded("letter_details_missing"))).toMatchObject({ status: 409, exit_code: 4 });
    expect(cliProblem(new UsageError("--mode is required"))).toMatchObject({
      code: "validation_error",
      status: 422,
      exit_code: EXIT_CODES.usage,
    });
    expect(cliProblem(new UsageError("unknown option '--x'", "usage_error"))).toMatchObject({
      status: 400,
      exit_code: 2,
    });
  });

  it("calls an error without a stable code internal_error, exit 1", () => {
    expect(cliProblem(new Error("boom"))).toMatchObject({
      code: "internal_error",
      status: 500,
      exit_code: 1,
    });
    expect(cliProblem(coded("EADDRINUSE"))).toMatchObject({ code: "internal_error", exit_code: 1 });
    expect(cliProblem(coded("data_dir_locked"))).toMatchObject({ code: "data_dir_locked", exit_code: 1 });
  });
});
