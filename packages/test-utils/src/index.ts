export { type CliResult, cliProcesses } from "./cli-process.js";
export { CuttableProxy } from "./cuttable-proxy.js";
export {
  type CaseSystemStep,
  type FaultyCaseSystem,
  faultyCaseSystem,
} from "./faulty-case-system.js";
export { echoPlugin, fixtureApi, testOrderExecutions, testOrdersPlugin } from "./fixture-api.js";
export { responseValidator } from "./openapi-assert.js";
export {
  type BodyFraming,
  type OversizedAnswer,
  type OversizedBody,
  sendOversizedBody,
} from "./oversized-body.js";
export { describePlugin, type PluginHarness, type PluginSubject } from "./plugin-harness.js";
export { describeStoreConformance, type StoreTarget } from "./store-conformance.js";
export { type FixtureKeys, fixtureKeys, fixtureStore } from "./store-fixture.js";
export {
  azureFunctionsTransport,
  expressTransport,
  fastifyTransport,
  inProcessTransport,
  nodeHttpTransport,
  ownCaseSystemTransport,
  type RunningTransport,
  remoteTransport,
  type Transport,
  transports,
} from "./transports.js";
