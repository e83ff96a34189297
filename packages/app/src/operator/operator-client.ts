import { readFileSync } from "node:fs";
import { join } from "node:path";
import { remoteOperatorAccountOperations } from "../operators/operator-accounts.js";
import { remoteWebhookOperations } from "../webhooks/webhook-operations.js";
import { remoteCaseOperations } from "./case-operations.js";
import { remoteLetterDetailsOperations } from "./letter-details-operations.js";
import type { OperatorOperations } from "./operations.js";
import { OPERATOR_FILE, type OperatorEndpointInfo } from "./operator-endpoint.js";

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
 * The operations of a running server, reached through its operator endpoint.
 *
 * @example
 * const ops = remoteOperations(readOperatorEndpoint(".data")!);
 * console.log(await ops.listKeys());
 */
export function remoteOperations(info: OperatorEndpointInfo): OperatorOperations {
  const call = async <T>(op: string, args: unknown = {}): Promise<T> => {
    const res = await fetch(`${info.url}/operator/${op}`, {
      method: "POST",
      headers: { authorization: `Bearer ${info.token}`, "content-type": "application/json" },
      body: JSON.stringify(args),
    });
    const body = (await res.json()) as { result?: T; error?: { code: string; message: string } };
    if (!res.ok || body.error) {
      throw new OperatorError(
        body.error?.code ?? "internal_error",
        body.error?.message ?? `HTTP ${res.status}`,
      );
    }
    return body.result as T;
  };
  return {
    ...remoteWebhookOperations(call),
    ...remoteCaseOperations(call),
    ...remoteOperatorAccountOperations(call),
    ...remoteLetterDetailsOperations(call),
    createKey: (input) => call("create-key", input),
    listKeys: () => call("list-keys"),
    revokeKey: (id) => call("revoke-key", { id }),
    setUdf: (input) => call("set-udf", input),
    listUdf: (organisation) => call("list-udf", { organisation }),
    removeUdf: async (input) => {
      await call("remove-udf", input);
    },
    migrate: () => call("migrate"),
    secretsStatus: () => call("secrets-status"),
    rotateSecrets: () => call("rotate-secrets"),
  };
}
