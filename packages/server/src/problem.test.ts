import { describe, expect, it } from "vitest";
import { ApiError, validationError } from "./api-error.js";
import { problemResponse, toProblemDetails } from "./problem.js";

describe("the problem mapper", () => {
  it("maps an ApiError to RFC 9457 with its headers", async () => {
    const res = problemResponse(
      new ApiError({
        status: 429,
        code: "rate_limited",
        detail: "Slow down.",
        headers: { "Retry-After": "7" },
      }),
    );
    expect(res.status).toBe(429);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("retry-after")).toBe("7");
    expect(await res.json()).toEqual({
      type: "https://incasso.dev/problems/rate_limited",
      title: "Too Many Requests",
      status: 429,
      code: "rate_limited",
      detail: "Slow down.",
    });
  });

  it("keeps errors[] for validation failures", () => {
    const p = toProblemDetails(validationError([{ field: "a", code: "required", message: "is required" }]));
    expect(p).toEqual({
      type: "https://incasso.dev/problems/validation_error",
      title: "Unprocessable Content",
      status: 422,
      code: "validation_error",
      detail: "The request has 1 invalid field.",
      errors: [{ field: "a", code: "required", message: "is required" }],
    });
  });

  it("hides the cause of unexpected errors behind a 500 internal_error", () => {
    expect(toProblemDetails(new Error("database password is hunter2"))).toEqual({
      type: "https://incasso.dev/problems/internal_error",
      title: "Internal Server Error",
      status: 500,
      code: "internal_error",
      detail: "The server could not handle the request. Try again later.",
    });
  });

  it("recognises an ApiError from another copy of the package by its brand", () => {
    const foreign = {
      isIncassoApiError: true,
      status: 404,
      code: "not_found",
      detail: "x",
      headers: {},
      extensions: {},
    };
    expect(toProblemDetails(foreign).code).toBe("not_found");
  });
});
