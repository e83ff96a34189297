export { type AnswerHttpErrorsOptions, answerHttpErrors } from "@incasso/server/node";
export { type IncassoFastifyOptions, incassoFastify } from "./fastify-plugin.js";
export { type IncassoFastifyRootRoutesOptions, incassoFastifyRootRoutes } from "./fastify-root-routes.js";
export { incassoFrameworkErrors } from "./framework-errors.js";
