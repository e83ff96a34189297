export { type AnswerHttpErrorsOptions, answerHttpErrors } from "@incasso/server/node";
export { type IncassoExpressOptions, incassoExpress } from "./express-handler.js";
export { incassoExpressRootRoutes } from "./express-root-routes.js";
