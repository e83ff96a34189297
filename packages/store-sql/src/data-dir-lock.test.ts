import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirLockedError, isDataDirHeld, LOCK_FILE } from "./data-dir-lock.js";

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "incasso-lock-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function writeLock(dir: string, pid: number, host = hostname()) {
  writeFileSync(
    join(dir, LOCK_FILE),
    JSON.stringify({ pid, hostname: host, command: "serve", startedAt: "2026-11-21T10:00:00.000Z" }),
  );
}

describe("data directory lock", () => {
  it("writes a 0600 lock naming this process and removes it on release", () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir, "serve");
    const info = JSON.parse(readFileSync(lock.path, "utf8"));
    expect(info).toMatchObject({ pid: process.pid, hostname: hostname(), command: "serve" });
    expect(statSync(lock.path).mode & 0o777).toBe(0o600);
    lock.release();
    expect(() => statSync(lock.path)).toThrow();
  });

  it("refuses a second holder in the same process with a clear message", () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir, "serve");
    try {
      acquireDataDirLock(dir, "keys");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DataDirLockedError);
      expect((error as DataDirLockedError).code).toBe("data_dir_locked");
      expect((error as Error).message).toContain(`is in use by process ${process.pid} (incasso serve`);
    }
    lock.release();
  });

  it("refuses when another live process holds it", async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 20000)"], { stdio: "ignore" });
    try {
      writeLock(dir, child.pid as number);
      expect(isDataDirHeld(dir)?.pid).toBe(child.pid);
      expect(() => acquireDataDirLock(dir, "serve")).toThrow(`is in use by process ${child.pid}`);
    } finally {
      child.kill();
    }
  });

  it("takes over a stale lock left by a dead process", () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid;
    writeLock(dir, dead);
    expect(isDataDirHeld(dir)).toBeUndefined();
    const lock = acquireDataDirLock(dir, "serve");
    expect(JSON.parse(readFileSync(lock.path, "utf8")).pid).toBe(process.pid);
    lock.release();
  });

  it("treats a lock from another host as held, since its pid means nothing here", () => {
    const dir = tempDir();
    writeLock(dir, 1, "some-other-host");
    expect(() => acquireDataDirLock(dir, "serve")).toThrow("on some-other-host");
  });

  it("takes over an unreadable lock file", () => {
    const dir = tempDir();
    writeFileSync(join(dir, LOCK_FILE), "garbage");
    const lock = acquireDataDirLock(dir, "migrate");
    expect(JSON.parse(readFileSync(lock.path, "utf8")).command).toBe("migrate");
    lock.release();
  });
});
