/**
 * Node flags for the processes the suite starts that open embedded PostgreSQL (PGlite, a 9 MB
 * WebAssembly module): V8's baseline WebAssembly compiler only, without its optimizing tier. Such
 * a process in a test lives seconds, in which compiling PostgreSQL's hot functions a second time
 * never pays back: `incasso keys list` took 1.6 s of CPU with these flags against 2.7 s without
 * (Node 20, 2 cores). The code run is the same, only how V8 compiles it differs; users' processes
 * run with V8's defaults.
 *
 * @example
 * spawn(process.execPath, [...PGLITE_CHILD_FLAGS, "server.mjs"]);
 */
export const PGLITE_CHILD_FLAGS: readonly string[] = ["--no-wasm-dynamic-tiering", "--no-wasm-tier-up"];
