import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type CaseReporter, createCaseReporter } from "@incasso/case-system";
import { type CaseSystemFault, describeCaseSystemConformance } from "@incasso/case-system-conformance";
import type { CaseSystem } from "@incasso/core";
import { openStore, type SqlStore } from "@incasso/store-sql";

// The example's case system passes the conformance kit: the case service runs as its own process
// (as an agency's would), the API's store is @incasso/store-sql's alone (no built-in case tables),
// and what the service's handlers do comes back through the change feed and the case reporter.

const here = fileURLToPath(new URL(".", import.meta.url));
const RETRIES = 2;

// The example is plain JavaScript without type declarations.
type HttpCaseSystemModule = {
  createHttpCaseSystem(options: {
    baseUrl: string;
    timeoutMs?: number;
    retries?: number;
    retryDelayMs?: number;
  }): CaseSystem;
};
type CaseFeedModule = {
  startCaseFeed(options: { baseUrl: string; reporter: CaseReporter; intervalMs?: number }): {
    pump(): Promise<number>;
    stop(): Promise<void>;
  };
};

/** Starts case-service.mjs as its own process and resolves with its URL once it listens. */
function startCaseService(file: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(here, "case-service.mjs")], {
    env: { ...process.env, CASE_SERVICE_PORT: "0", HOST: "127.0.0.1", CASE_SERVICE_FILE: file },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`case service exited with ${code}: ${out}`)));
  });
}

let baseUrl = "";
const post = async (path: string, body: unknown, method = "POST") => {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${await res.text()}`);
};

describeCaseSystemConformance({
  name: "examples/own-case-system (HTTP case service)",
  async create() {
    const dir = mkdtempSync(join(tmpdir(), "incasso-own-case-system-"));
    const service = await startCaseService(join(dir, "cases.json"));
    baseUrl = service.url;
    const store: SqlStore = await openStore();
    const { createHttpCaseSystem } = (await import(
      new URL("./http-case-system.mjs", import.meta.url).href
    )) as HttpCaseSystemModule;
    const { startCaseFeed } = (await import(
      new URL("./case-feed.mjs", import.meta.url).href
    )) as CaseFeedModule;
    const caseSystem = createHttpCaseSystem({ baseUrl, timeoutMs: 2000, retries: RETRIES, retryDelayMs: 10 });
    const feed = startCaseFeed({ baseUrl, reporter: createCaseReporter({ store }), intervalMs: 100 });
    // A handler's change in the service, then the feed carries it over at once.
    const handled = async (path: string, body: unknown) => {
      await post(path, body);
      await feed.pump();
    };
    return {
      caseSystem,
      store,
      handler: {
        startTreatment: ({ caseNumber }) =>
          handled(`/cases/${caseNumber}/status`, { status: "In behandeling" }),
        bookPayment: ({ caseNumber, amountCents, paymentDate }) =>
          handled(`/cases/${caseNumber}/payments`, { amount_cents: amountCents, payment_date: paymentDate }),
        resolveTask: ({ taskId, outcome, note }) => handled(`/tasks/${taskId}/resolve`, { outcome, note }),
        closeCase: ({ caseNumber }) => handled(`/cases/${caseNumber}/status`, { status: "Gesloten" }),
      },
      // A refusal of the service outlasts the host's retries where the host retries (5xx answers).
      failNext: (fault: CaseSystemFault) =>
        post("/faults", {
          fault,
          times: fault === "placement" || fault === "attachment" ? RETRIES + 1 : 1,
        }),
      async close() {
        await feed.stop();
        await store.close();
        service.child.kill("SIGTERM");
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  reset: () => post("/faults", {}, "DELETE"),
});
