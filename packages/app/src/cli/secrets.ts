import { parseArgs } from "node:util";
import { type StorageFlags, withOperations } from "../internal/cli-store.js";

/** The help lines of `incasso secrets`. */
export const SECRETS_HELP = `  incasso secrets status [--json]       how webhook secrets are stored: unencrypted or by key id
  incasso secrets rotate [--json]       encrypt every webhook secret with the first key of
                                        INCASSO_SECRET_KEY (unencrypted ones and older keys)
`;

const OPTIONS = {
  json: { type: "boolean", default: false },
  "data-dir": { type: "string" },
  "database-url": { type: "string" },
} as const;

/**
 * `incasso secrets status|rotate` (decision store-secrets-at-rest). On a data directory held by a
 * running server both go through its operator endpoint, so the server's own INCASSO_SECRET_KEY is
 * the one used; otherwise this process's.
 */
export async function secretsCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  const { values } = parseArgs({ args: rest, options: OPTIONS, strict: true });
  const flags: StorageFlags = values;
  if (sub === "status") {
    const status = await withOperations(flags, "secrets", (ops) => ops.secretsStatus());
    if (values.json) return print(status);
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
  if (sub === "rotate") {
    const rotation = await withOperations(flags, "secrets", (ops) => ops.rotateSecrets());
    if (values.json) return print(rotation);
    console.log(
      `Encrypted ${rotation.rotated} webhook secret${rotation.rotated === 1 ? "" : "s"} with key ${rotation.keyId}; ${rotation.current} already were.`,
    );
    return;
  }
  throw new Error(`secrets needs status or rotate${sub ? `, not "${sub}"` : ""}`);
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
