// The receiver's half of the API, so an integrator needs one install: the helpers of
// @incasso/webhook-signing under `@incasso/client/webhooks`. A separate entry because they use
// node:crypto (docs/decisions/webhook-signing-webcrypto.md) and the main entry runs on fetch alone,
// in browsers too (docs/decisions/client-webhooks-entry.md).
export * from "@incasso/webhook-signing";
