export { toPointer } from "./json-pointer.js";
export * from "./schemas.js";
export {
  type ValidationContext,
  type ValidationFailure,
  validateCreateInvoice,
  validateCreateSubscription,
  validateEmptyBody,
} from "./validate.js";
