import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the test receiver got. */
export interface ReceivedDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A webhook receiver on 127.0.0.1 for the end-to-end tests: records every request and answers
 * what `answer` says (a status, or "hang" to keep the request open).
 */
export async function startReceiver(answer: (delivery: ReceivedDelivery, count: number) => number | "hang") {
  const received: ReceivedDelivery[] = [];
  const open: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const delivery = { path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) };
      received.push(delivery);
      const status = answer(delivery, received.length);
      if (status === "hang") open.push(res);
      else res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/incasso`;
  return {
    url,
    received,
    async close() {
      for (const r of open) r.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Polls `fn` every 25 ms until it returns a value, at most `tries` times. */
export async function waitFor<T>(
  fn: () => T | undefined | Promise<T | undefined>,
  what: string,
  tries = 600,
) {
  for (let i = 0; i < tries; i++) {
    const value = await fn();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}
