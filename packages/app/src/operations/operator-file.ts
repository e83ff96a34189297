/**
 * The file in the data directory that tells the CLI where the running server listens
 * (docs/decisions/operator-endpoint.md). Kept apart from the endpoint, so the CLI reads it without
 * loading the server's code.
 *
 * @example
 * const file = join(".data", OPERATOR_FILE); // ".data/operator.json"
 */
export const OPERATOR_FILE = "operator.json";

/**
 * What {@link OPERATOR_FILE} holds.
 *
 * @example
 * const info: OperatorEndpointInfo = { url: "http://127.0.0.1:41234", token: "…", pid: 4242 };
 */
export interface OperatorEndpointInfo {
  url: string;
  token: string;
  pid: number;
}
