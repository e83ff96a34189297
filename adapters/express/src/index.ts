export { type IncassoExpressOptions, incassoExpress } from "./express-handler.js";
