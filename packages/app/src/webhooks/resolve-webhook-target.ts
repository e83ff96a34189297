import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { privateAddressReason } from "./private-address.js";

/**
 * Resolves a host name to every address it has, as the system resolver does for a connection.
 *
 * @example
 * const lookup: LookupAll = async () => [{ address: "93.184.215.14", family: 4 }];
 */
export type LookupAll = (hostname: string) => Promise<{ address: string; family: number }[]>;

/**
 * Where a delivery will connect: the URL and, when private targets are refused, the one checked
 * address the connection is pinned to.
 *
 * @example
 * const t: WebhookTarget = { url: new URL("https://client.example/hook"), address: "93.184.215.14", family: 4 };
 */
export interface WebhookTarget {
  url: URL;
  /** The checked address to connect to; undefined when private targets are allowed (no pinning). */
  address: string | undefined;
  family: 4 | 6 | undefined;
}

/**
 * Why a target was refused: `private_target` (an address in a private range), `dns_failed` (the
 * host name does not resolve) or `invalid_url`.
 *
 * @example
 * try { await resolveWebhookTarget(url); } catch (e) { if (isWebhookTargetError(e)) console.log(e.code); }
 */
export class WebhookTargetError extends Error {
  readonly code: "private_target" | "dns_failed" | "invalid_url";
  readonly isWebhookTargetError = true as const;
  constructor(code: WebhookTargetError["code"], message: string) {
    super(message);
    this.name = "WebhookTargetError";
    this.code = code;
  }
}

/**
 * Whether a value is a {@link WebhookTargetError}.
 *
 * @example
 * isWebhookTargetError(new WebhookTargetError("dns_failed", "x")); // true
 */
export function isWebhookTargetError(value: unknown): value is WebhookTargetError {
  return (
    typeof value === "object" && value !== null && (value as WebhookTargetError).isWebhookTargetError === true
  );
}

const systemLookup: LookupAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * Checks a webhook URL before a delivery. Unless `allowPrivateTargets` is set, the host is
 * resolved, every address it resolves to is checked against the private ranges (one private
 * address refuses the host: an attacker controls which one a client would pick), and the first
 * address is returned so the connection can be pinned to it. Connecting by name after checking
 * would resolve again, and a DNS answer that changes in between (DNS rebinding) would slip past.
 *
 * @throws WebhookTargetError `invalid_url`, `dns_failed` or `private_target`.
 * @example
 * const target = await resolveWebhookTarget("https://client.example/hook");
 * // { url, address: "93.184.215.14", family: 4 }
 */
export async function resolveWebhookTarget(
  url: string,
  options: { allowPrivateTargets?: boolean; lookup?: LookupAll } = {},
): Promise<WebhookTarget> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WebhookTargetError("invalid_url", `${url} is not an absolute URL.`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new WebhookTargetError("invalid_url", `${url} is not an http(s) URL.`);
  }
  if (options.allowPrivateTargets) return { url: parsed, address: undefined, family: undefined };
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: { address: string; family: number }[];
  if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await (options.lookup ?? systemLookup)(host);
    } catch (error) {
      const code = (error as { code?: string }).code;
      throw new WebhookTargetError("dns_failed", `${host} does not resolve${code ? ` (${code})` : ""}.`);
    }
    if (addresses.length === 0) throw new WebhookTargetError("dns_failed", `${host} has no addresses.`);
  }
  for (const { address } of addresses) {
    const reason = privateAddressReason(address);
    if (reason !== undefined) {
      throw new WebhookTargetError(
        "private_target",
        `${host} resolves to ${address}, a ${reason} address; allow private targets only for local development.`,
      );
    }
  }
  const first = addresses[0] as { address: string; family: number };
  return { url: parsed, address: first.address, family: first.family === 6 ? 6 : 4 };
}
