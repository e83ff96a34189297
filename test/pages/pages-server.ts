// Shared by the page suites (not a test file itself): the running service as createIncasso()
// composes it, pages included, on a throwaway data directory and a free port.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createIncasso, type Incasso } from "@incasso/app";
import { listen } from "@incasso/server/node";

export interface PagesServer {
  /** The server's origin, such as http://127.0.0.1:40123. */
  origin: string;
  incasso: Incasso;
  close(): Promise<void>;
}

const quiet = { info() {}, warn() {}, error() {} };

export async function startPagesServer(): Promise<PagesServer> {
  const dir = mkdtempSync(join(tmpdir(), "incasso-pages-"));
  const incasso = await createIncasso(
    { dataDir: dir },
    { startLines: false, logger: quiet, env: {}, webhooks: false, letters: false, operatorEndpoint: false },
  );
  const { server, url } = await listen(incasso.api, { port: 0, host: "127.0.0.1" });
  return {
    origin: new URL(url).origin,
    incasso,
    async close() {
      // The browser keeps its connections open; end them so close() need not wait for them.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await incasso.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
