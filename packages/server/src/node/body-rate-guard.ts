import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * Settings of {@link createBodyRateGuard}.
 *
 * @example
 * const options: BodyRateGuardOptions = { minBytesPerSecond: 8192, graceMs: 10_000, onTooSlow: () => {} };
 */
export interface BodyRateGuardOptions {
  /** Slowest average rate accepted after the grace period, in bytes per second. */
  minBytesPerSecond: number;
  /** How long a body may arrive at any rate, in ms. */
  graceMs: number;
  /**
   * Called once for a request whose body arrives too slowly; it answers and closes. The socket is
   * passed because `req.socket` is null once an answer has finished (a 413 sent while the body
   * still arrives).
   */
  onTooSlow: (req: IncomingMessage, res: ServerResponse, socket: Socket) => void;
}

/**
 * Watches request bodies as they arrive.
 *
 * @example
 * const guard = createBodyRateGuard({ minBytesPerSecond: 8192, graceMs: 10_000, onTooSlow });
 * guard.watch(req, res);
 */
export interface BodyRateGuard {
  /** Starts watching a request's body; a request without one is not watched. */
  watch(req: IncomingMessage, res: ServerResponse): void;
  /** Requests being watched now. */
  readonly size: number;
  /** Stops every check (the server closed). */
  close(): void;
}

interface Watched {
  req: IncomingMessage;
  res: ServerResponse;
  /**
   * The request's socket, kept from the start: node sets `req.socket` to null once the response
   * has finished and the socket is handed back to the connection (keep-alive) or closed, and a
   * listener that reads `req.socket` then throws outside any request, which ends the process.
   */
  socket: Socket;
  startedAt: number;
  startBytes: number;
}

function declaresBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  if (length !== undefined) return Number(length) > 0;
  return req.headers["transfer-encoding"] !== undefined;
}

/**
 * A minimum body rate after a grace period (decision server-slow-clients). node times the whole
 * request (`requestTimeout`) but not its pace, so a client that sends one byte a second, or opens
 * an upload and sends nothing, holds its connection and its share of the body budget for the whole
 * request time-out. The rate is the average since the headers arrived, counted on the socket's
 * bytes (reading the request stream here would take the body from the API), checked by one timer
 * for all requests rather than one per request.
 *
 * @example
 * const guard = createBodyRateGuard({ minBytesPerSecond: 8192, graceMs: 10_000, onTooSlow: (_req, _res, socket) => socket.destroy() });
 * server.on("request", (req, res) => guard.watch(req, res));
 */
export function createBodyRateGuard(options: BodyRateGuardOptions): BodyRateGuard {
  const watched = new Set<Watched>();
  // Checked a few times within the grace period, at most once a second.
  const everyMs = Math.max(10, Math.min(1000, Math.floor(options.graceMs / 4)));
  let timer: NodeJS.Timeout | undefined;

  const sweep = (): void => {
    const now = Date.now();
    for (const entry of watched) {
      const elapsed = now - entry.startedAt;
      if (elapsed < options.graceMs) continue;
      if (entry.req.complete || entry.socket.destroyed) {
        watched.delete(entry);
        continue;
      }
      const received = entry.socket.bytesRead - entry.startBytes;
      if ((received * 1000) / elapsed < options.minBytesPerSecond) {
        watched.delete(entry);
        options.onTooSlow(entry.req, entry.res, entry.socket);
      }
    }
    if (watched.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };

  return {
    watch(req, res) {
      if (options.minBytesPerSecond === 0 || !declaresBody(req) || req.complete) return;
      const socket = req.socket;
      const entry: Watched = { req, res, socket, startedAt: Date.now(), startBytes: socket.bytesRead };
      watched.add(entry);
      // A keep-alive socket carries many requests: each one's listeners go when it ends, or they
      // would pile up on the socket (and keep every request alive) for as long as it stays open.
      const forget = (): void => {
        watched.delete(entry);
        req.off("end", forget);
        req.off("close", forget);
        socket.off("close", forget);
      };
      req.once("end", forget);
      req.once("close", forget);
      socket.once("close", forget);
      if (timer === undefined) {
        timer = setInterval(sweep, everyMs);
        // The checks alone never keep the process alive.
        timer.unref();
      }
    },
    get size() {
      return watched.size;
    },
    close() {
      watched.clear();
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    },
  };
}
