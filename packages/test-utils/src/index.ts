export { echoPlugin, fixtureApi } from "./fixture-api.js";
export { responseValidator } from "./openapi-assert.js";
export { describeStoreConformance, type StoreTarget } from "./store-conformance.js";
export {
  azureFunctionsTransport,
  expressTransport,
  fastifyTransport,
  inProcessTransport,
  nodeHttpTransport,
  type RunningTransport,
  type Transport,
  transports,
} from "./transports.js";
