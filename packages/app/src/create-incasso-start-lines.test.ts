import { rmSync } from "node:fs";
import { newDataDir } from "@incasso/test-utils";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { type CreateIncassoOptions, createIncasso } from "./create-incasso.js";

// Issue 32, item 3: a host of createIncasso() gets the start lines and the first key that
// `incasso serve` prints, unless it says `startLines: false`.
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
afterEach(() => vi.restoreAllMocks());

// Each a copy of a fresh cluster (newDataDir): PostgreSQL's initdb is most of a new directory's
// cost, and nothing here is about initdb.
const freshDir = async () => {
  const dir = await newDataDir("incasso-app-start-lines-");
  dirs.push(dir);
  return dir;
};

/** Starts and stops a service; what it logged at info and wrote to stdout itself, and its key count. */
async function startOnce(dataDir: string, options: CreateIncassoOptions) {
  const info: string[] = [];
  let stdout = "";
  // Only this module's own writes: the first-key line (vitest's stdout is not a terminal).
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const incasso = await createIncasso(
    { dataDir },
    {
      logger: { info: (message) => info.push(message), warn() {}, error() {} },
      webhooks: false,
      letters: false,
      operatorEndpoint: false,
      ...options,
    },
  );
  vi.restoreAllMocks();
  try {
    return { info, stdout, keys: await incasso.store.apiKeys.count(), api: incasso.api };
  } finally {
    await incasso.stop();
  }
}

describe("createIncasso's start lines", () => {
  it("say where the API, pages and console are, and show a first key once on an empty data directory", {
    timeout: 120_000,
  }, async () => {
    const dir = await freshDir();
    const first = await startOnce(dir, { env: { PORT: "4123" } });
    expect(first.info).toEqual([
      "incasso ready: the API at http://localhost:4123/api/v1 once your server listens there",
      "try: curl http://localhost:4123/api/v1/ping, with the key as Authorization: Bearer",
      "pages: API reference http://localhost:4123/api/v1/docs; WIK and court pages http://localhost:4123/tools",
      "console: http://localhost:4123/console",
      // The workspace installs the optional OCR packages (decision pdf-guard-ocr).
      "scans: PDFs without a text layer are read by OCR (English, Dutch), up to 8000 ms per PDF",
    ]);
    const line = JSON.parse(first.stdout.trim());
    expect(Object.keys(line)).toEqual(["level", "time", "pid", "firstKey", "msg"]);
    expect(line.msg).toBe("created a test key for organisation Demo; it is shown only now");
    expect(line.firstKey).toMatch(/^svc_test_[A-Za-z0-9]{32}$/);
    expect(first.keys).toBe(1);

    // Started again: the key exists, so none is made or shown; the public URL names the API.
    const again = await startOnce(dir, {
      env: { PORT: "4123" },
      api: { publicUrl: "https://incasso.example/api/v1" },
      pages: false,
      console: false,
    });
    expect(again.info).toEqual([
      "incasso ready: the API at https://incasso.example/api/v1 once your server listens there",
      "try: curl https://incasso.example/api/v1/ping",
      "scans: PDFs without a text layer are read by OCR (English, Dutch), up to 8000 ms per PDF",
    ]);
    expect(again.stdout).toBe("");
    expect(again.keys).toBe(1);
  });

  it("are off with startLines: false, and no key is made", { timeout: 120_000 }, async () => {
    const quiet = await startOnce(await freshDir(), { env: {}, startLines: false });
    expect(quiet.info).toEqual([]);
    expect(quiet.stdout).toBe("");
    expect(quiet.keys).toBe(0);
  });
});
