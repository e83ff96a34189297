// Minified size of what an integrator's bundler ships (docs/benchmarks.md, "Client bundle size").
// Run after the build: pnpm --filter @incasso/client size
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const entries = [
  // The main entry reaches no other package: @incasso/webhook-signing is only behind ./webhooks.
  { name: "@incasso/client", contents: 'export * from "./dist/index.js";', platform: "neutral" },
  // The receiver entry with @incasso/webhook-signing bundled in (node:crypto stays external).
  { name: "@incasso/client/webhooks", contents: 'export * from "./dist/webhooks.js";', platform: "node" },
  {
    name: "both entries, webhook-signing external",
    contents: 'export * from "./dist/index.js"; export * from "./dist/webhooks.js";',
    platform: "node",
    external: ["@incasso/webhook-signing"],
  },
  {
    name: "both entries, webhook-signing included",
    contents: 'export * from "./dist/index.js"; export * from "./dist/webhooks.js";',
    platform: "node",
  },
];
for (const entry of entries) {
  const result = await build({
    stdin: { contents: entry.contents, resolveDir: new URL("..", import.meta.url).pathname },
    bundle: true,
    minify: true,
    format: "esm",
    platform: entry.platform,
    external: entry.external ?? [],
    write: false,
    logLevel: "warning",
  });
  const bytes = result.outputFiles[0].contents;
  console.log(
    `${entry.name}: ${bytes.byteLength} B minified, ${gzipSync(bytes, { level: 9 }).byteLength} B gzip -9`,
  );
}
