import { readFileSync } from "node:fs";
import { join } from "node:path";
import { OPERATOR_FILE, type OperatorEndpointInfo } from "./operator-file.js";
import {
  type OperationCall,
  type OperatorOperations,
  operationEntry,
  operationsOf,
} from "./operator-registry.js";

/**
 * An operator error that came back from a running server, with its stable code.
 *
 * @example
 * try { await remote.revokeKey("key_x"); } catch (e) { if (e instanceof OperatorError) console.log(e.code); }
 */
export class OperatorError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "OperatorError";
    this.code = code;
  }
}

/**
 * The endpoint a running server announced in the data directory, or undefined.
 *
 * @example
 * const info = readOperatorEndpoint(".data");
 */
export function readOperatorEndpoint(dataDir: string): OperatorEndpointInfo | undefined {
  try {
    return JSON.parse(readFileSync(join(dataDir, OPERATOR_FILE), "utf8")) as OperatorEndpointInfo;
  } catch {
    return undefined;
  }
}

/** What the endpoint answers: `{ result }`, or a problem (RFC 9457) with its stable `code`. */
interface EndpointAnswer {
  result?: unknown;
  code?: unknown;
  detail?: unknown;
}

/**
 * Sends each operation to a running server's operator endpoint: its input as the body of
 * `POST /operator/<name>`, its result from `{ result }` (null stands for no result), a refusal
 * (an `application/problem+json` answer) as an {@link OperatorError} with the problem's `code`
 * and `detail`.
 *
 * @example
 * const call = remoteCall(readOperatorEndpoint(".data")!);
 * await call("listKeys", {});
 */
export function remoteCall(info: OperatorEndpointInfo): OperationCall {
  return async (method, input) => {
    const res = await fetch(`${info.url}/operator/${operationEntry(method).name}`, {
      method: "POST",
      headers: { authorization: `Bearer ${info.token}`, "content-type": "application/json" },
      body: JSON.stringify(input),
    });
    const text = await res.text();
    let body: EndpointAnswer = {};
    try {
      body = JSON.parse(text) as EndpointAnswer;
    } catch {
      // Not JSON (something else answered on the port): the status is all there is to say.
    }
    if (!res.ok) {
      const code = typeof body.code === "string" ? body.code : "internal_error";
      const detail =
        typeof body.detail === "string" ? body.detail : `The operator endpoint answered HTTP ${res.status}.`;
      throw new OperatorError(code, detail);
    }
    return body.result ?? undefined;
  };
}

/**
 * The operations of a running server, reached through its operator endpoint.
 *
 * @example
 * const ops = remoteOperations(readOperatorEndpoint(".data")!);
 * console.log(await ops.listKeys());
 */
export function remoteOperations(info: OperatorEndpointInfo): OperatorOperations {
  return operationsOf(remoteCall(info));
}
