import type { Server } from "node:http";
import type { Socket } from "node:net";

/**
 * Caps the open connections of a `node:http` server. A connection over the cap is answered with
 * `refusal` (whole HTTP bytes) and closed, and is never handed to the HTTP parser, so it costs no
 * request. node's own `maxConnections` would drop it without a word.
 *
 * `onFull` is called once when a connection is first refused, and again only after the open
 * connections have fallen to half the cap: a flood is reported once, not once per connection.
 *
 * @example
 * capConnections(server, 32, () => rawAnswer, () => logger.warn("operator endpoint: connection cap reached"));
 */
export function capConnections(
  server: Server,
  maxConnections: number,
  refusal: () => string,
  onFull?: (open: number) => void,
): void {
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
