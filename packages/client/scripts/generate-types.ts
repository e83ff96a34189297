// Regenerates src/generated/openapi.generated.ts from the document of the built @incasso/server.
// Run after `pnpm build`: pnpm --filter @incasso/client generate:types
import { writeFileSync } from "node:fs";
import { servedOpenApiDocument } from "../src/internal/testing/start-server.js";
import { openApiTypes } from "./openapi-types.js";

const target = new URL("../src/generated/openapi.generated.ts", import.meta.url);
writeFileSync(target, await openApiTypes(await servedOpenApiDocument()));
console.log(`wrote ${target.pathname}`);
