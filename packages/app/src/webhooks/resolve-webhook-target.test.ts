import { describe, expect, it } from "vitest";
import { resolveWebhookTarget } from "./resolve-webhook-target.js";

// Decision webhooks-private-targets (issue 22, item 6): a webhook URL that names a private address
// in any written form, or a host name that resolves to one, is refused.

async function refusal(url: string, lookup?: () => Promise<{ address: string; family: number }[]>) {
  try {
    await resolveWebhookTarget(url, lookup ? { lookup } : {});
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, message };
  }
  throw new Error(`${url} was not refused`);
}

describe("resolveWebhookTarget", () => {
  it("refuses the IPv4-translated form ::ffff:0:0:0/96 written in a URL, as the other translated forms", async () => {
    const translated = await refusal("http://[::ffff:0:127.0.0.1]/hook");
    expect(translated.code).toBe("private_target");
    // The URL parser writes the address in hexadecimal; the check reads the IPv4 inside it.
    expect(translated.message).toBe(
      "::ffff:0:7f00:1 resolves to ::ffff:0:7f00:1, a IPv4-translated, deprecated (RFC 2765 §2.1) address; allow private targets only for local development.",
    );
    for (const url of [
      "http://[::ffff:127.0.0.1]/",
      "http://[::ffff:0:10.0.0.1]/",
      "http://127.0.0.1/",
      "http://[::1]/",
    ]) {
      expect((await refusal(url)).code).toBe("private_target");
    }
  });

  it("refuses a host name that resolves to a translated private address, and lets a public one through", async () => {
    const viaDns = await refusal("https://hooks.example/", async () => [
      { address: "::ffff:0:c0a8:101", family: 6 },
    ]);
    expect(viaDns.code).toBe("private_target");
    expect(viaDns.message).toBe(
      "hooks.example resolves to ::ffff:0:c0a8:101, a IPv4-translated, deprecated (RFC 2765 §2.1) address; allow private targets only for local development.",
    );
    const target = await resolveWebhookTarget("https://hooks.example/x", {
      lookup: async () => [{ address: "93.184.215.14", family: 4 }],
    });
    expect({ href: target.url.href, address: target.address, family: target.family }).toEqual({
      href: "https://hooks.example/x",
      address: "93.184.215.14",
      family: 4,
    });
  });
});
