// Kept for callers of the earlier module: the mapping lives in to-api-error.ts, the statuses in
// error-status.ts.
export { CORE_ERROR_STATUS } from "./error-status.js";
export { storeUnavailableApiError, toApiError } from "./to-api-error.js";
