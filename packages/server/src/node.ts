export { type ConnectionCapOptions, capConnections } from "./node/connection-cap.js";
export {
  type ConnectionLimits,
  DEFAULT_CONNECTION_LIMITS,
  resolveConnectionLimits,
} from "./node/connection-limits.js";
export { type AnswerHttpErrorsOptions, answerHttpErrors } from "./node/http-errors.js";
export {
  createNodeHandler,
  createNodeServer,
  listen,
  type NodeHandlerOptions,
  type NodeServerOptions,
} from "./node/node-server.js";
export { rawProblem } from "./node/raw-problem.js";
export { closeAfterUnreadBody } from "./node/unread-body.js";
export { toWebRequest, type WebRequestOptions } from "./node/web-request.js";
export { failResponse, sendWebResponse } from "./node/web-response.js";
