import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openApiTypes } from "../scripts/openapi-types.js";
import { servedOpenApiDocument } from "./internal/testing/start-server.js";

describe("generated types", () => {
  it("src/generated/openapi.generated.ts is what the served OpenAPI document generates", async () => {
    const committed = readFileSync(new URL("./generated/openapi.generated.ts", import.meta.url), "utf8");
    const fresh = await openApiTypes(await servedOpenApiDocument());
    // On failure: pnpm build && pnpm --filter @incasso/client generate:types, and commit the result.
    expect(committed).toBe(fresh);
  });

  it("keeps request fields with a default optional (defaultNonNullable false)", () => {
    const committed = readFileSync(new URL("./generated/openapi.generated.ts", import.meta.url), "utf8");
    expect(committed).toContain('debtor_type?: "consumer" | "business";');
    expect(committed).toContain("include_vat?: boolean;");
  });
});
