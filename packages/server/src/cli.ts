import { parseArgs } from "node:util";
import pkg from "../package.json" with { type: "json" };
import { createApi } from "./create-api.js";
import { listen } from "./node-server.js";

const HELP = `incasso ${pkg.version}: the debt-collection order API

Usage:
  incasso serve [--port N] [--host H]   start the API server (default http://127.0.0.1:3000/api/v1)
  incasso --version                     print the version
  incasso --help                        show this help

Environment: PORT and HOST are used when the flags are absent.
`;

async function serve(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string", short: "p" },
      host: { type: "string" },
      "trust-proxy": { type: "boolean", default: false },
    },
    strict: true,
  });
  const port = Number(values.port ?? process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be an integer from 0 to 65535, not ${values.port ?? process.env.PORT}`);
  }
  const host = values.host ?? process.env.HOST ?? "127.0.0.1";
  const api = createApi();
  const { server, url } = await listen(api, { port, host, trustProxy: values["trust-proxy"] });
  console.log(`incasso listening on ${url}`);
  console.log(`  try: curl ${url}/ping`);
  const stop = () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(HELP);
    return;
  }
  if (command === "--version" || command === "-v") {
    process.stdout.write(`${pkg.version}\n`);
    return;
  }
  if (command === "serve") return serve(rest);
  process.stderr.write(`incasso: unknown command "${command}"\n\n${HELP}`);
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`incasso: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
