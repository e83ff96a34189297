export {
  CONFORMANCE_ORDER_PRINCIPAL_CENTS,
  conformanceOrder,
  conformancePdfBase64,
  conformancePlacement,
} from "./conformance-orders.js";
export type {
  CaseSystemConformanceOptions,
  CaseSystemConformanceTarget,
  CaseSystemFault,
  ConformanceHandler,
} from "./conformance-target.js";
export { describeCaseSystemConformance } from "./describe-case-system-conformance.js";
