// A stand-in for the OpenAI HTTP API on 127.0.0.1, for tests only. Each test says how the next
// request is answered; the server records what it received.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type FakeAnswer =
  | { kind: "json"; text: string }
  | { kind: "refusal"; refusal: string }
  | { kind: "incomplete" }
  | { kind: "status"; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: "hang" };

export interface FakeOpenAI {
  baseURL: string;
  requests: Array<{ path: string; headers: IncomingMessage["headers"]; body: Record<string, unknown> }>;
  answers: FakeAnswer[];
  close(): Promise<void>;
}

/**
 * Starts the stand-in. Without `respond`, each request takes the next of `answers`; with it, a
 * request the queue has no answer for is answered by `respond(body)` (a benchmark's stand-in
 * model).
 */
export async function startFakeOpenAI(
  options: { respond?: (body: Record<string, unknown>) => FakeAnswer } = {},
): Promise<FakeOpenAI> {
  const hanging = new Set<ServerResponse>();
  const fake: FakeOpenAI = {
    baseURL: "",
    requests: [],
    answers: [],
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
    if (!options.respond) fake.requests.push({ path: req.url ?? "", headers: req.headers, body });
    const answer = fake.answers.shift() ??
      options.respond?.(body) ?? {
        kind: "status",
        status: 500,
        body: { error: { message: "no answer" } },
      };
    if (answer.kind === "hang") {
      hanging.add(res);
      return;
    }
    if (answer.kind === "status") {
      res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      res.end(JSON.stringify(answer.body));
      return;
    }
    const content =
      answer.kind === "refusal"
        ? [{ type: "refusal", refusal: answer.refusal }]
        : answer.kind === "json"
          ? [{ type: "output_text", text: answer.text, annotations: [] }]
          : [];
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: "resp_test",
        object: "response",
        created_at: 1_780_000_000,
        status: answer.kind === "incomplete" ? "incomplete" : "completed",
        incomplete_details: answer.kind === "incomplete" ? { reason: "max_output_tokens" } : null,
        model: body.model,
        output: [{ type: "message", id: "msg_test", status: "completed", role: "assistant", content }],
        parallel_tool_calls: true,
        tool_choice: "auto",
        tools: [],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}
