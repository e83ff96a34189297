import type { Logger } from "./create-api.js";

/**
 * The default logger of the API, the service and the CLI: the console, details after the message.
 *
 * @example
 * consoleLogger.warn("webhook attempt failed", { eventId: "evt_0123456789abcdef" });
 */
export const consoleLogger: Logger = {
  info: (message, fields) => console.info(message, fields ?? ""),
  warn: (message, fields) => console.warn(message, fields ?? ""),
  error: (message, fields) => console.error(message, fields ?? ""),
};
