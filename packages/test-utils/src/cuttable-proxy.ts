import { type AddressInfo, createServer, type Server, type Socket, connect as tcpConnect } from "node:net";

/**
 * A TCP proxy on the loopback interface to a server (PostgreSQL in the outage tests), with the two
 * ways a network fails:
 *
 * - `cut()`: every connection is destroyed and new ones are refused, as when the server stops or a
 *   firewall rejects; `restore()` accepts again.
 * - `blackHole()`: the connections stay open and new ones are accepted, but no byte goes through
 *   either way (each is dropped, as a silent network partition loses packets: the peer's kernel
 *   never answers, so nothing ever says the connection is gone); `heal()` forwards again. A
 *   statement sent into the hole never gets its answer, even after the heal.
 *
 * @example
 * const proxy = new CuttableProxy({ host: "127.0.0.1", port: 5432 });
 * const port = await proxy.listen();
 * proxy.blackHole(); // … requests stall …
 * proxy.heal();
 * await proxy.close();
 */
export class CuttableProxy {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #cut = false;
  #blackHole = false;
  /** Connections refused while cut. */
  refused = 0;
  /** Bytes dropped while black-holed, both ways. */
  dropped = 0;

  constructor(target: { host: string; port: number }) {
    this.#server = createServer((client) => {
      if (this.#cut) {
        this.refused += 1;
        client.destroy();
        return;
      }
      const upstream = tcpConnect(target.port, target.host);
      for (const [from, to] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        this.#sockets.add(from);
        from.on("data", (chunk: Buffer) => {
          if (this.#blackHole) {
            this.dropped += chunk.length;
            return;
          }
          // Backpressure as pipe() keeps it: stop reading while the other side's buffer is full.
          if (!to.write(chunk)) {
            from.pause();
            to.once("drain", () => from.resume());
          }
        });
        from.on("end", () => {
          if (!this.#blackHole) to.end();
        });
        from.on("error", () => to.destroy());
        from.on("close", () => {
          this.#sockets.delete(from);
          to.destroy();
        });
      }
    });
  }

  /** Listens on 127.0.0.1, on a free port, which it returns. */
  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    return (this.#server.address() as AddressInfo).port;
  }

  /** Destroys every connection and refuses new ones until {@link restore}. */
  cut(): void {
    this.#cut = true;
    for (const socket of this.#sockets) socket.destroy();
  }

  /** Accepts connections again after {@link cut}. */
  restore(): void {
    this.#cut = false;
  }

  /** Keeps every connection open but forwards nothing, either way, until {@link heal}. */
  blackHole(): void {
    this.#blackHole = true;
  }

  /** Forwards again after {@link blackHole}; what was dropped meanwhile stays lost. */
  heal(): void {
    this.#blackHole = false;
  }

  /** The number of connections open through the proxy (each counts once). */
  get connections(): number {
    return this.#sockets.size / 2;
  }

  /** Destroys every connection and stops listening. */
  close(): Promise<void> {
    this.cut();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
