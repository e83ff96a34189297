export {
  type AzureFunctionsOptions,
  createAzureFunctionsHandler,
  registerIncassoFunction,
} from "./azure-handler.js";
