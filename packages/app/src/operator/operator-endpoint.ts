import { randomBytes, timingSafeEqual } from "node:crypto";
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { isCaseSystemError } from "@incasso/case-system";
import { isCoreError, isWebhookError } from "@incasso/core";
import { isSecretKeyError } from "@incasso/store-sql";
import { isOperatorAccountError } from "../operators/operator-accounts.js";
import { type OperatorOperations, operationEntry, operationNamed } from "./operator-registry.js";

/** The file in the data directory that tells the CLI where the running server listens. */
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

/**
 * A running operator endpoint.
 *
 * @example
 * const endpoint = await startOperatorEndpoint({ operations, dataDir: ".data" });
 * await endpoint.close();
 */
export interface OperatorEndpoint {
  readonly url: string;
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024;

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error("body too large");
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? {} : JSON.parse(text);
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(header ?? "");
  // Constant time, so the token cannot be found a byte at a time.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Runs the operation the endpoint names with the body as its input; undefined for a name that is
 * no operation. A result of nothing is sent as null.
 */
async function dispatch(
  operations: OperatorOperations,
  op: string,
  body: Record<string, unknown>,
): Promise<unknown> {
  const method = operationNamed(op);
  if (method === undefined) return undefined;
  const entry = operationEntry(method);
  const run = operations[method] as (...args: unknown[]) => Promise<unknown>;
  return (await run(...entry.args(entry.input(body)))) ?? null;
}

/**
 * Starts the operator endpoint of a running server on the embedded store: HTTP on 127.0.0.1 only,
 * on a port the system picks, behind a random 256-bit token. Its URL and token go into
 * `operator.json` in the data directory with mode 0600, so only a user who can read the data
 * directory can reach it, and the CLI works while the server holds the lock
 * (docs/decisions/operator-endpoint.md).
 *
 * @example
 * const endpoint = await startOperatorEndpoint({ operations: directOperations(store), dataDir: ".data" });
 */
export async function startOperatorEndpoint(options: {
  operations: OperatorOperations;
  dataDir: string;
}): Promise<OperatorEndpoint> {
  const token = randomBytes(32).toString("base64url");
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(JSON.stringify(body));
    };
    if (!tokenMatches(req.headers.authorization, token)) {
      send(401, { error: { code: "unauthorized", message: "The operator token is missing or wrong." } });
      return;
    }
    const op = /^\/operator\/([a-z-]+)$/.exec(req.url ?? "")?.[1];
    if (req.method !== "POST" || op === undefined) {
      send(404, { error: { code: "not_found", message: "No such operation." } });
      return;
    }
    readBody(req)
      .then((args) => dispatch(options.operations, op, (args ?? {}) as Record<string, unknown>))
      .then(
        (result) =>
          result === undefined
            ? send(404, { error: { code: "not_found", message: `No operation ${op}.` } })
            : send(200, { result }),
        (error: unknown) => {
          // A refusal with a stable code (a missing case, a task no longer open) is the caller's
          // to read; anything else is the server's fault.
          const known =
            isCoreError(error) ||
            isWebhookError(error) ||
            isCaseSystemError(error) ||
            isSecretKeyError(error) ||
            isOperatorAccountError(error);
          send(known ? 422 : 500, {
            error: {
              code: known ? error.code : "internal_error",
              message: error instanceof Error ? error.message : String(error),
            },
          });
        },
      );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const file = join(options.dataDir, OPERATOR_FILE);
  const info: OperatorEndpointInfo = { url, token, pid: process.pid };
  // Written under another name with mode 0600, then renamed: no reader ever sees a partial file.
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(info)}\n`, { mode: 0o600 });
  renameSync(temp, file);
  return {
    url,
    async close() {
      rmSync(file, { force: true });
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
