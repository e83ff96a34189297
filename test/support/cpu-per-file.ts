import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { afterAll, expect } from "vitest";

// With INCASSO_TEST_TIMINGS=FILE (vitest.config.ts), each test file's CPU time goes to
// FILE.cpu.jsonl: the worker's own, and that of the child processes it waited for. On 2 cores the
// suite is bound by CPU, so this, more than a file's duration, says what to cut. Read from
// /proc/self/stat, so on Linux only; elsewhere nothing is written.
const STAT = "/proc/self/stat";

/** CPU seconds so far: fields 14 to 17 of proc(5)'s stat (utime, stime, cutime, cstime), in ticks of 1/100 s. */
function cpuSeconds(): { self: number; children: number } {
  // The fields after the command name, which is in parentheses and may hold spaces; field 3 first.
  const fields = readFileSync(STAT, "utf8").split(") ")[1]?.split(" ") ?? [];
  const field = (n: number) => Number(fields[n - 3]);
  return { self: (field(14) + field(15)) / 100, children: (field(16) + field(17)) / 100 };
}

if (existsSync(STAT)) {
  // A setup file is run anew before each test file, so this is the file's start.
  const start = cpuSeconds();
  const began = performance.now();
  afterAll(() => {
    const end = cpuSeconds();
    const line = {
      file: expect.getState().testPath ?? "",
      self: end.self - start.self,
      children: end.children - start.children,
      wall: (performance.now() - began) / 1000,
      pid: process.pid,
    };
    appendFileSync(`${process.env.INCASSO_TEST_TIMINGS}.cpu.jsonl`, `${JSON.stringify(line)}\n`);
  });
}
