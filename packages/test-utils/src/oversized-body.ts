import { connect } from "node:net";

/**
 * How {@link sendOversizedBody} frames the body: `chunked` (Transfer-Encoding, no length) or
 * `content-length` (the length declared up front).
 */
export type BodyFraming = "chunked" | "content-length";

/**
 * A request whose body is larger than the server takes.
 *
 * @example
 * const spec: OversizedBody = { port: 3000, path: "/api/v1/tools/wik", framing: "chunked", bytes: 70_000 };
 */
export interface OversizedBody {
  port: number;
  host?: string;
  /** Path and query as the request line carries it. */
  path: string;
  framing: BodyFraming;
  /** How many body bytes the client sends at most (with `content-length`, also what it declares). */
  bytes: number;
  /** Extra request headers (a key, a cookie); a Content-Type here replaces application/json. */
  headers?: Record<string, string>;
}

/**
 * What came back: the status line's code, the headers and the body as latin1 text (up to the
 * connection's close or the end of the first answer), and how many body bytes left the client.
 *
 * @example
 * const answer: OversizedAnswer = { status: 413, headers: {}, body: "{}", sent: 65536 };
 */
export interface OversizedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  sent: number;
}

const PIECE = 64 * 1024;

/**
 * Sends one POST with an oversized body over a plain socket, the way curl `--data-binary` does,
 * and resolves with the server's first answer. Body bytes are written in pieces of 64 KiB, each
 * once the socket has drained, and the sending stops when the server has answered or closed; the
 * socket is closed before the promise resolves. Bounded: at most `bytes` are sent and the whole
 * exchange is given up after 60 s.
 *
 * @example
 * const answer = await sendOversizedBody({ port, path: "/api/v1/tools/wik", framing: "chunked", bytes: 70_000 });
 * answer.status; // 413
 */
export function sendOversizedBody(spec: OversizedBody): Promise<OversizedAnswer> {
  const host = spec.host ?? "127.0.0.1";
  const lines = [
    `POST ${spec.path} HTTP/1.1`,
    `Host: ${host}:${spec.port}`,
    ...(Object.keys(spec.headers ?? {}).some((name) => name.toLowerCase() === "content-type")
      ? []
      : ["Content-Type: application/json"]),
    spec.framing === "chunked" ? "Transfer-Encoding: chunked" : `Content-Length: ${spec.bytes}`,
    ...Object.entries(spec.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(spec.port, host);
    let data = "";
    let sent = 0;
    let finished = false;
    const piece = Buffer.alloc(PIECE, 0x20);
    const giveUp = setTimeout(() => finish(new Error("no answer within 60 s")), 60_000);
    const answered = (): OversizedAnswer | undefined => {
      const end = data.indexOf("\r\n\r\n");
      if (end < 0) return undefined;
      const [statusLine = "", ...headerLines] = data.slice(0, end).split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const i = line.indexOf(":");
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      const rest = data.slice(end + 4);
      const length = headers["content-length"];
      if (length !== undefined && Buffer.byteLength(rest, "latin1") < Number(length)) return undefined;
      if (headers["transfer-encoding"] === "chunked" && !rest.endsWith("0\r\n\r\n")) return undefined;
      const body =
        headers["transfer-encoding"] === "chunked"
          ? rest.replace(/^[0-9a-f]+\r\n/i, "").replace(/\r\n0\r\n\r\n$/, "")
          : rest;
      return { status: Number(statusLine.split(" ")[1]), headers, body, sent };
    };
    function finish(error?: Error): void {
      if (finished) return;
      finished = true;
      clearTimeout(giveUp);
      socket.destroy();
      const answer = answered();
      if (answer !== undefined) resolve(answer);
      else
        reject(
          error ??
            new Error(`the connection closed without an answer: ${JSON.stringify(data.slice(0, 200))}`),
        );
    }
    const pump = (): void => {
      while (!finished && sent < spec.bytes && answered() === undefined) {
        const size = Math.min(PIECE, spec.bytes - sent);
        const body = size === PIECE ? piece : piece.subarray(0, size);
        const frame =
          spec.framing === "chunked"
            ? [Buffer.from(`${size.toString(16)}\r\n`), body, Buffer.from("\r\n")]
            : [body];
        sent += size;
        let flushed = true;
        for (const part of frame) flushed = socket.write(part) && flushed;
        if (!flushed) {
          socket.once("drain", pump);
          return;
        }
      }
      if (!finished && sent >= spec.bytes && spec.framing === "chunked" && socket.writable)
        socket.write("0\r\n\r\n");
    };
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      data += chunk;
      if (answered() !== undefined) finish();
    });
    // A server that answered and closed may reset the connection under the client's remaining
    // writes; the answer already read is what counts, so an error only ends the exchange at the
    // close that follows it.
    let failure: Error | undefined;
    socket.on("error", (error) => {
      failure = error;
    });
    socket.on("close", () => finish(failure));
    socket.on("connect", () => {
      socket.write(`${lines.join("\r\n")}\r\n\r\n`);
      pump();
    });
  });
}
