// The entry the repository's own suites import (vitest and tsconfig resolve @incasso/test-utils to
// this file): the published entry (src/public.ts) and what makes sense inside this repository only.
export { type CliResult, cliProcesses } from "./cli-process.js";
export { CuttableProxy } from "./cuttable-proxy.js";
export { newDataDir } from "./data-dir.js";
export {
  type CaseSystemStep,
  type FaultyCaseSystem,
  faultyCaseSystem,
} from "./faulty-case-system.js";
export { echoPlugin, fixtureApi, testOrderExecutions, testOrdersPlugin } from "./fixture-api.js";
export { PGLITE_CHILD_FLAGS } from "./node-flags.js";
export {
  type BodyFraming,
  type OversizedAnswer,
  type OversizedBody,
  sendOversizedBody,
} from "./oversized-body.js";
export * from "./public.js";
export { describeStoreConformance, type StoreTarget } from "./store-conformance.js";
export {
  azureFunctionsTransport,
  expressTransport,
  fastifyTransport,
  inProcessTransport,
  nodeHttpTransport,
  ownCaseSystemTransport,
  remoteTransport,
  transports,
} from "./transports.js";
