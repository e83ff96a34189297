import type { Server } from "node:http";
import type { Socket } from "node:net";
import { rawProblem } from "./raw-problem.js";

/**
 * Options of {@link capConnections}.
 *
 * @example
 * const options: ConnectionCapOptions = { onFull: (open) => logger.warn("connection cap reached", { open }) };
 */
export interface ConnectionCapOptions {
  /**
   * The whole HTTP answer (bytes for the socket) a connection over the cap gets before it is
   * closed. Default: 503 `server_busy` with `Retry-After: 1` (RFC 9110 §15.6.4).
   */
  refusal?: () => string;
  /**
   * Called with the open connections when a connection is first refused, and again only after the
   * open connections have fallen to half the cap: a flood is reported once, not once per
   * connection.
   */
  onFull?: (open: number) => void;
}

const serverBusy = (): string =>
  rawProblem(503, "server_busy", "The server has too many open connections. Try again shortly.", {
    "Retry-After": "1",
  });

/**
 * Caps the open connections of a `node:http` server. node's own `maxConnections` drops a
 * connection without a word; here one over the cap gets an answer (by default 503 `server_busy`
 * with `Retry-After`) before it is closed, and is never handed to the HTTP parser, so it costs no
 * request (decision server-slow-clients).
 *
 * @example
 * import { createServer } from "node:http";
 * import { capConnections } from "@incasso/server/node";
 * const server = createServer(handler);
 * capConnections(server, 500, { onFull: (open) => logger.warn("connection cap reached", { open }) });
 */
export function capConnections(
  server: Server,
  maxConnections: number,
  options: ConnectionCapOptions = {},
): void {
  const refusal = options.refusal ?? serverBusy;
  const { onFull } = options;
  let open = 0;
  let reported = false;
  const listeners = server.listeners("connection") as ((socket: Socket) => void)[];
  server.removeAllListeners("connection");
  server.on("connection", (socket: Socket) => {
    if (open >= maxConnections) {
      if (!reported) {
        reported = true;
        onFull?.(open);
      }
      socket.on("error", () => undefined);
      // What it sends is discarded, so its close is seen at once.
      socket.resume();
      socket.end(refusal());
      setTimeout(() => socket.destroy(), 1000).unref();
      return;
    }
    open++;
    socket.once("close", () => {
      open--;
      if (open <= maxConnections / 2) reported = false;
    });
    for (const listener of listeners) listener.call(server, socket);
  });
}
