import { appendFileSync, readFileSync } from "node:fs";
import { afterAll, expect } from "vitest";

// With INCASSO_TEST_TIMINGS=FILE, each test file's CPU time goes to FILE.cpu.jsonl: the worker's
// own and that of the child processes it waited for (from /proc/self/stat, Linux only).
function ticks(): { self: number; children: number } {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
  const at = (i: number) => Number(fields[i - 3]);
  return { self: (at(14) + at(15)) / 100, children: (at(16) + at(17)) / 100 };
}
const start = ticks();
const began = performance.now();
afterAll(() => {
  const file = expect.getState().testPath ?? "";
  const end = ticks();
  appendFileSync(
    `${process.env.INCASSO_TEST_TIMINGS}.cpu.jsonl`,
    `${JSON.stringify({ file, self: end.self - start.self, children: end.children - start.children, wall: (performance.now() - began) / 1000, pid: process.pid })}\n`,
  );
});
