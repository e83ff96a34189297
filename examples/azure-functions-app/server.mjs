// Runs the Functions app's handler on this machine without the Functions host: each node request
// becomes the library's HttpRequest, as the Functions host hands it to the trigger. Workers run here
// too, as `incasso serve` would; in Azure they run in `incasso worker`.
import { createServer } from "node:http";
import azure from "@azure/functions";
import { createIncasso } from "@incasso/app";
import { answerHttpErrors } from "@incasso/server/node";
import { createHost } from "./app.mjs";

// @azure/functions is CommonJS: its classes come through the default import.
const { HttpRequest, InvocationContext } = azure;

const incasso = await createIncasso();
const handler = createHost(incasso.api);
const server = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = Buffer.concat(chunks);
  const headers = Object.fromEntries(
    Object.entries(req.headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(", ") : `${value}`,
    ]),
  );
  const request = new HttpRequest({
    url: `http://${req.headers.host ?? "localhost"}${req.url}`,
    method: /** @type {import("@azure/functions").HttpMethod} */ (req.method),
    headers: { ...headers, "x-forwarded-for": req.socket.remoteAddress ?? "" },
    ...(body.byteLength > 0 ? { body: { bytes: body } } : {}),
  });
  const answer = await handler(request, new InvocationContext({ functionName: "incasso" }));
  res.writeHead(answer.status ?? 200, /** @type {Record<string, string>} */ (answer.headers ?? {}));
  res.end(answer.body ? Buffer.from(/** @type {Uint8Array} */ (answer.body)) : undefined);
});
// This node server stands in for the Functions host, so it answers what node refuses before any
// handler runs (a malformed request line, oversized headers, an Expect other than 100-continue)
// with the API's problem+json, as the reference server does. In Azure the Functions host answers
// those itself and the app has nothing to wire.
answerHttpErrors(server);
server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "127.0.0.1", () => {
  const { address, port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  console.log(`azure functions app listening on http://${address}:${port}/api/v1`);
});
const stop = () => server.close(() => void incasso.stop().then(() => process.exit(0)));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
