export { type IncassoFastifyOptions, incassoFastify } from "./fastify-plugin.js";
export { incassoFrameworkErrors } from "./framework-errors.js";
