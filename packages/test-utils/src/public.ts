// The published entry of @incasso/test-utils (package.json `exports`): what a plugin author outside
// this repository uses. src/index.ts adds what only the repository's own suites need (the example
// hosts as transports, the CLI, fault injection, the store conformance suite).
export {
  azureFunctionsHostTransport,
  expressHostTransport,
  fastifyHostTransport,
  fetchTransport,
  hostTransports,
  nodeServerTransport,
} from "./host-transports.js";
export { responseValidator } from "./openapi-assert.js";
export { describePlugin, type PluginHarness, type PluginSubject } from "./plugin-harness.js";
export { type FixtureKeys, fixtureKeys, fixtureStore } from "./store-fixture.js";
export type { RunningTransport, Transport } from "./transport-types.js";
