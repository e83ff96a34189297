import { readFileSync } from "node:fs";
import { join } from "node:path";
import { OPERATOR_FILE, type OperatorEndpointInfo } from "./operator-endpoint.js";
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

/**
 * Sends each operation to a running server's operator endpoint: its input as the body of
 * `POST /operator/<name>`, its result from `{ result }` (null stands for no result), a refusal as
 * an {@link OperatorError}.
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
    const body = (await res.json()) as { result?: unknown; error?: { code: string; message: string } };
    if (!res.ok || body.error) {
      throw new OperatorError(
        body.error?.code ?? "internal_error",
        body.error?.message ?? `HTTP ${res.status}`,
      );
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
