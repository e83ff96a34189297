import { openCaseSystemStore } from "@incasso/case-system";
import { type IncassoStore, issueApiKey } from "@incasso/core";

/**
 * A fresh store for a test file: PGlite in memory (a few seconds to start, so open one per file
 * and share it).
 *
 * @example
 * const store = await fixtureStore();
 */
export function fixtureStore(): Promise<IncassoStore> {
  return openCaseSystemStore();
}

/**
 * The keys the HTTP suites use, each in its own organisation unless noted.
 *
 * @example
 * const keys = await fixtureKeys(store, "express");
 */
export interface FixtureKeys {
  /** Live key, creditor management on, organisation `<prefix> Acme` with creditor `Acme Creditor BV`. */
  live: string;
  /** Test key of the same organisation, creditor management off. */
  test: string;
  /** A key of the same organisation, revoked. */
  revoked: string;
  /** A key of another organisation, creditor management on. */
  other: string;
}

/**
 * Issues the keys of {@link FixtureKeys}; `prefix` keeps organisations of parallel suites apart.
 *
 * @example
 * const { live } = await fixtureKeys(store, "in-process");
 */
export async function fixtureKeys(store: IncassoStore, prefix: string): Promise<FixtureKeys> {
  const organisation = `${prefix} Acme`;
  const live = await issueApiKey(store, {
    organisation,
    creditorName: "Acme Creditor BV",
    mode: "live",
    creditorManagement: true,
  });
  const test = await issueApiKey(store, { organisation, mode: "test" });
  const revoked = await issueApiKey(store, { organisation, mode: "live" });
  await store.apiKeys.revoke(revoked.record.id, new Date());
  const other = await issueApiKey(store, {
    organisation: `${prefix} Other`,
    mode: "live",
    creditorManagement: true,
  });
  return { live: live.key, test: test.key, revoked: revoked.key, other: other.key };
}
