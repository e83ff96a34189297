import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/**
 * An optional dependency of `@incasso/app`, loaded when a feature first needs it; undefined when it
 * is not installed (`npm install --omit=optional`). pino-pretty (pretty logs on a terminal) and
 * prom-client (metrics) are optional so that a host installs only what it uses (issue 32, item 2);
 * both are CommonJS, so a synchronous require keeps their callers synchronous.
 *
 * @example
 * const promClient = optionalModule<typeof import("prom-client")>("prom-client");
 */
export function optionalModule<T>(name: string): T | undefined {
  try {
    return require(name) as T;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "MODULE_NOT_FOUND" && String((error as Error).message).includes(`'${name}'`))
      return undefined;
    throw error;
  }
}
