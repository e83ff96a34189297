import { z } from "zod";

/**
 * The spec's Problem object (section Errors, RFC 9457), for the OpenAPI document and for tests.
 * Extension members beyond these are allowed.
 *
 * @example
 * ProblemSchema.parse({ type: "https://incasso.dev/problems/not_found", title: "Not Found", status: 404, code: "not_found", detail: "x" });
 */
export const ProblemSchema = z
  .looseObject({
    type: z.url().describe("URI identifying the problem type"),
    title: z.string().describe("Short summary of the problem type"),
    status: z.int().min(400).max(599).describe("HTTP status code"),
    code: z.string().describe("Machine-readable code"),
    detail: z.string().describe("Explanation of this occurrence"),
    errors: z
      .array(
        z.object({
          field: z.string().describe("Path of the field, such as invoices[0].amount_cents"),
          code: z.string(),
          message: z.string(),
        }),
      )
      .optional()
      .describe("Per-field failures, for validation errors"),
  })
  .meta({ id: "Problem", description: "An error, as RFC 9457 application/problem+json." });
