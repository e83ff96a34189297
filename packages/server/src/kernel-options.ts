/**
 * The error `createApi` throws (through `assertKernelOptions`): the kernel was created without a
 * piece it needs.
 * Recognise it by `code`, not by class (house rule: no `instanceof` across packages).
 *
 * @example
 * try { createApi({}); } catch (error) { if (isKernelOptionError(error)) console.error(error.message); }
 */
export class KernelOptionError extends Error {
  readonly code = "missing_option" as const;
  /** The option that is missing, such as `store` or `caseSystem`. */
  readonly option: string;
  constructor(option: string, message: string) {
    super(message);
    this.name = "KernelOptionError";
    this.option = option;
  }
}

/**
 * Whether a value is a {@link KernelOptionError}, by its code.
 *
 * @example
 * if (isKernelOptionError(error)) console.error(`createApi needs ${error.option}`);
 */
export function isKernelOptionError(error: unknown): error is KernelOptionError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { code?: unknown }).code === "missing_option" &&
    typeof (error as { option?: unknown }).option === "string"
  );
}

/**
 * What `createApi` checks of its options before it builds anything (`assertKernelOptions`).
 *
 * @example
 * const options: KernelOptions = { store, caseSystem };
 */
export interface KernelOptions {
  store?: unknown;
  caseSystem?: unknown;
  publicOnly?: boolean;
  orders?: false | { caseSystem?: unknown };
}

/**
 * Refuses options that would silently drop the protected endpoints (decision
 * server-kernel-required-options): no `store` without `publicOnly: true`, and no store without a
 * `caseSystem` unless `orders: false`.
 *
 * @example
 * assertKernelOptions({ store, caseSystem }); // passes
 * assertKernelOptions({}); // throws KernelOptionError (option "store")
 */
export function assertKernelOptions(options: KernelOptions): void {
  if (options.publicOnly) return;
  if (options.store === undefined) {
    throw new KernelOptionError(
      "store",
      "createApi: options.store is missing. The order and creditor endpoints need the storage port: " +
        "pass { store, caseSystem } (openCaseSystemStore() and createBuiltInCaseSystem() " +
        "of @incasso/case-system), or use createIncasso() of @incasso/app, which opens both. For an API " +
        "of only /ping, /openapi.json and the public tools, pass { publicOnly: true }.",
    );
  }
  if (
    options.orders !== false &&
    options.caseSystem === undefined &&
    options.orders?.caseSystem === undefined
  ) {
    throw new KernelOptionError(
      "caseSystem",
      "createApi: options.caseSystem is missing. Orders are placed on a case system: pass the built-in " +
        "one (createBuiltInCaseSystem({ store }) of @incasso/case-system) or your own, or use " +
        "createIncasso() of @incasso/app; pass { orders: false } to serve no order endpoints.",
    );
  }
}
