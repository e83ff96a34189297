export {
  type CaseSteps,
  type CaseSystemSteps,
  type ItemSteps,
  type PlaceOnCaseStepwiseOptions,
  placeOnCaseStepwise,
} from "./place-on-case-stepwise.js";
