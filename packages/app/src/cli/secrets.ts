import { withOperations } from "../internal/cli-store.js";
import type { FlagValues } from "./flag-spec.js";
import { printJson } from "./print.js";

/**
 * `incasso secrets status|rotate` (decision store-secrets-at-rest). On a data directory held by a
 * running server both go through its operator endpoint, so the server's own INCASSO_SECRET_KEY is
 * the one used; otherwise this process's.
 *
 * @example
 * await secretsCommand("rotate", { "database-url": "postgres://postgres@127.0.0.1:5432/incasso" });
 */
export async function secretsCommand(sub: "status" | "rotate", values: FlagValues): Promise<void> {
  if (sub === "status") {
    const status = await withOperations(values, "secrets", (ops) => ops.secretsStatus());
    if (values.json) return printJson(status);
    const byKey = Object.entries(status.byKeyId).map(([id, n]) => `${n} under key ${id}`);
    console.log(
      `Webhook secrets: ${status.total} (${[`${status.plain} unencrypted`, ...byKey].join(", ")}).`,
    );
    console.log(
      status.key_id === null
        ? "INCASSO_SECRET_KEY is not set: new secrets are stored unencrypted."
        : `New secrets are encrypted with key ${status.key_id}.`,
    );
    if (status.unknownKeyIds.length > 0) {
      console.log(
        `INCASSO_SECRET_KEY lacks key ${status.unknownKeyIds.join(", ")}: those secrets cannot be read.`,
      );
    }
    return;
  }
  const rotation = await withOperations(values, "secrets", (ops) => ops.rotateSecrets());
  if (values.json) return printJson(rotation);
  console.log(
    `Encrypted ${rotation.rotated} webhook secret${rotation.rotated === 1 ? "" : "s"} with key ${rotation.keyId}; ${rotation.current} already were.`,
  );
}
