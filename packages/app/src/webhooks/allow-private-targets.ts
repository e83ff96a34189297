/** The environment variable that allows private webhook targets (local development). */
export const ALLOW_PRIVATE_WEBHOOK_TARGETS_ENV = "INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS";

/**
 * Whether private webhook targets are allowed: the flag `--allow-private-webhook-targets`, or
 * `INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS=1` (also `true` or `yes`). Off by default, so a
 * production server never sends into its own network by accident.
 *
 * @example
 * allowPrivateWebhookTargets(false, { INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS: "1" }); // true
 */
export function allowPrivateWebhookTargets(
  flag: boolean | undefined,
  env: Record<string, string | undefined> = process.env,
): boolean {
  if (flag) return true;
  const value = env[ALLOW_PRIVATE_WEBHOOK_TARGETS_ENV]?.trim().toLowerCase();
  return value === "1" || value === "true" || value === "yes";
}
