import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { capConnections } from "./connection-cap.js";

// The connection cap (decision server-slow-clients): a connection over the cap gets the refusal and
// is closed, and a flood is reported once, again only after the open connections fell to half.

function openSocket(
  port: number,
): Promise<{ socket: Socket; answer: Promise<string>; first: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    const first = new Promise<string>((done) => socket.once("data", (chunk) => done(chunk.toString("utf8"))));
    const answer = new Promise<string>((done) =>
      socket.on("close", () => done(Buffer.concat(chunks).toString("utf8"))),
    );
    socket.once("error", reject);
    socket.once("connect", () => resolve({ socket, answer, first }));
  });
}

describe("capConnections", () => {
  let server: Server;
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const start = async (cap: number, options: Parameters<typeof capConnections>[2]) => {
    server = createServer((_req, res) => res.end("ok"));
    // Connections seen by the server, so a test waits until the server counted a close.
    const seen: Socket[] = [];
    server.on("connection", (socket: Socket) => seen.push(socket));
    capConnections(server, cap, options);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    return { port: typeof address === "object" && address ? address.port : 0, seen };
  };

  it("answers a connection over the cap with 503 server_busy by default", async () => {
    const { port } = await start(1, undefined);
    const held = await openSocket(port);
    const refused = await openSocket(port);
    const answer = await refused.answer;
    expect(answer.split("\r\n", 1)[0]).toBe("HTTP/1.1 503 Service Unavailable");
    expect(answer).toMatch(/\r\nRetry-After: 1\r\n/);
    expect(answer).toMatch(/\r\nCache-Control: no-store\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({
      type: "https://incasso.dev/problems/server_busy",
      title: "Service Unavailable",
      status: 503,
      code: "server_busy",
      detail: "The server has too many open connections. Try again shortly.",
    });
    held.socket.destroy();
  });

  it("sends the given refusal and reports a flood once, again after the open fell to half the cap", async () => {
    const reports: number[] = [];
    const { port } = await start(2, { refusal: () => "REFUSED", onFull: (open) => reports.push(open) });
    const held = [await openSocket(port), await openSocket(port)];
    const flood = await Promise.all(Array.from({ length: 5 }, () => openSocket(port)));
    expect(await Promise.all(flood.map((f) => f.answer))).toEqual(Array(5).fill("REFUSED"));
    expect(reports).toEqual([2]);
    // One of the two closes: open is 1, half the cap, so the next flood is reported anew.
    held[0]?.socket.destroy();
    let answer = "REFUSED";
    for (let attempt = 0; attempt < 100 && answer === "REFUSED"; attempt++) {
      // A probe that gets in is answered by the server and kept open: it fills the cap again.
      const probe = await openSocket(port);
      probe.socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      answer = (await probe.first).split("\r\n", 1)[0] ?? "";
    }
    expect(answer).toBe("HTTP/1.1 200 OK");
    const again = await openSocket(port);
    expect(await again.answer).toBe("REFUSED");
    expect(reports).toEqual([2, 2]);
    held[1]?.socket.destroy();
  });
});
