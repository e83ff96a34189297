export { type AddressInput, AddressSchema } from "./address-schema.js";
export {
  HoldRequestSchema,
  OrderActionSchema,
  PaymentReportSchema,
  WithdrawRequestSchema,
} from "./control-request-schemas.js";
export { DEFAULT_COUNTRY, isCountryCode, normaliseCountryCode } from "./country-code.js";
export {
  type CreateOrderInput,
  CreateOrderSchema,
  MetadataSchema,
  OrderTypeSchema,
  UdfFieldsSchema,
} from "./create-order-schema.js";
export { type CreditorRefInput, CreditorRefSchema } from "./creditor-ref-schema.js";
export { type CursorPosition, decodeCursor, encodeCursor } from "./cursor.js";
export { customerNumberFilter, normaliseCustomerNumber } from "./customer-number.js";
export { type DebtorInput, DebtorSchema, DebtorTypeSchema } from "./debtor-schema.js";
export { type DisplayNameFields, debtorDisplayName, debtorsSummary } from "./display-name.js";
export { type DueDateFields, dueDateOf } from "./due-date.js";
export { isOrdersError, ORDERS_ERROR_CODES, OrdersError, type OrdersErrorCode } from "./errors.js";
export { type FieldError, OrderFieldErrorSchema } from "./field-error.js";
export { type InvoiceInput, InvoiceSchema } from "./invoice-schema.js";
export { ORDER_LIMITS } from "./limits.js";
export type {
  NormalisedAddress,
  NormalisedAttachment,
  NormalisedDebtor,
  NormalisedInvoice,
  NormalisedOrder,
  UdfDefinition,
  UdfValue,
} from "./normalised-order.js";
export { isOrderId, newOrderId, ORDER_ID_PATTERN, OrderIdSchema } from "./order-id.js";
export {
  type ListOrdersQuery,
  ListOrdersQuerySchema,
  OrderListItemSchema,
  OrderListSchema,
} from "./order-list-schema.js";
export {
  type Order,
  OrderCaseSchema,
  OrderModeSchema,
  OrderSchema,
  TimestampSchema,
} from "./order-schema.js";
export {
  OrderActionTypeSchema,
  type OrderStatus,
  OrderStatusActionSchema,
  OrderStatusSchema,
} from "./order-status-schema.js";
export { type ListOrdersQueryParse, parseListOrdersQuery } from "./parse-list-orders-query.js";
export { DUTCH_POSTAL_CODE_FORMAT, normaliseDutchPostalCode } from "./postal-code.js";
export { totalAmountCents } from "./total-amount.js";
export {
  type ControlRequest,
  type ControlRequestValidation,
  validateControlRequest,
} from "./validate-control-request.js";
export {
  type CreateOrderProblemCode,
  type CreateOrderValidation,
  type ValidateCreateOrderContext,
  validateCreateOrder,
} from "./validate-create-order.js";
export { WARNING_CODES, type Warning, type WarningCode, WarningSchema } from "./warnings.js";
