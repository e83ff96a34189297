import { describe, expect, it } from "vitest";
import { allowPrivateWebhookTargets } from "./allow-private-targets.js";

describe("allowPrivateWebhookTargets", () => {
  it.each([
    [true, {}, true],
    [false, {}, false],
    [undefined, { INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS: "1" }, true],
    [false, { INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS: "true" }, true],
    [false, { INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS: " YES " }, true],
    [false, { INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS: "0" }, false],
    [false, { INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS: "" }, false],
  ])("flag %s with %j gives %s", (flag, env, expected) => {
    expect(allowPrivateWebhookTargets(flag, env)).toBe(expected);
  });
});
