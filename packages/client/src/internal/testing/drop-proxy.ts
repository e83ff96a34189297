// A TCP proxy on 127.0.0.1 for the tests, which cuts the connection when the server's answer to a
// chosen request starts to arrive: the server has done its work and written its answer, and the
// client never sees it, as when a response is lost on the way.
import { createConnection, createServer, type Socket } from "node:net";

/**
 * A running {@link startDropProxy}.
 *
 * @example
 * const proxy = await startDropProxy(server.port, (line) => line.startsWith("POST /api/v1/orders "));
 */
export interface DropProxy {
  port: number;
  /** The first bytes of each answer that was cut, as the server sent them. */
  readonly dropped: string[];
  close(): Promise<void>;
}

/**
 * Forwards 127.0.0.1:<port> to 127.0.0.1:`targetPort`. The answers to the first `times` requests
 * whose request line `matches` are cut: both sockets are destroyed when the answer's first bytes
 * arrive from the server.
 *
 * @example
 * const proxy = await startDropProxy(server.port, (line) => line.startsWith("POST "), 1);
 */
export async function startDropProxy(
  targetPort: number,
  matches: (requestLine: string) => boolean,
  times = 1,
): Promise<DropProxy> {
  let budget = times;
  const dropped: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection({ host: "127.0.0.1", port: targetPort });
    sockets.add(client).add(upstream);
    client.on("close", () => sockets.delete(client));
    upstream.on("close", () => sockets.delete(upstream));
    let cutNextAnswer = false;
    client.on("data", (chunk: Buffer) => {
      const requestLine = chunk.toString("latin1").split("\r\n", 1)[0] ?? "";
      if (budget > 0 && matches(requestLine)) {
        budget--;
        cutNextAnswer = true;
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (cutNextAnswer) {
        dropped.push(chunk.toString("utf8"));
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    client.on("end", () => upstream.end());
    upstream.on("end", () => client.end());
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    dropped,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
