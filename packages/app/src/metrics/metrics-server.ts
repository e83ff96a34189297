import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { IncassoMetrics } from "./incasso-metrics.js";

/**
 * The metrics listener of {@link startMetricsServer}.
 *
 * @example
 * const server: MetricsServer = await startMetricsServer({ metrics, port: 9464 });
 * console.log(server.url); // http://127.0.0.1:9464/metrics
 */
export interface MetricsServer {
  /** The scrape URL, such as `http://127.0.0.1:9464/metrics`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves GET /metrics (Prometheus text format) on a port of its own, on 127.0.0.1 unless `host`
 * says otherwise, never on the API's port (decision operations-metrics): the API's port faces
 * clients, and the metrics name every route and its traffic. Everything else is 404.
 *
 * @example
 * const server = await startMetricsServer({ metrics, port: 9464 });
 * await server.close();
 */
export async function startMetricsServer(options: {
  metrics: IncassoMetrics;
  port: number;
  host?: string;
}): Promise<MetricsServer> {
  const host = options.host ?? "127.0.0.1";
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found; see /metrics\n");
      return;
    }
    options.metrics.text().then(
      (text) => {
        res.writeHead(200, { "content-type": options.metrics.contentType });
        res.end(req.method === "HEAD" ? undefined : text);
      },
      (error: unknown) => {
        res
          .writeHead(500, { "content-type": "text/plain; charset=utf-8" })
          .end(`metrics failed: ${String(error)}\n`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
