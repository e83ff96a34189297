// Shared by the browser suites (not a test file itself): Debian's Chromium driven by
// playwright-core. Without /usr/bin/chromium the suites are skipped on a laptop, and fail under
// CI=true, where .ci/run installs it (architecture: web pages are tested in Debian's Chromium).
import { existsSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Whether the browser suites run: Chromium is there, or CI demands them (and then fails without it). */
export const runBrowserTests = existsSync(CHROMIUM_PATH) || process.env.CI === "true";

// The flags the project's browser tests use: headless, no sandbox (CI runs as root), and nothing
// that reaches the network on Chromium's own account.
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, headless: true });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Runs axe-core, already loaded in the page, against WCAG 2.x A and AA and the best practices,
 * and returns the serious and critical violations.
 */
export async function seriousViolations(
  page: Page,
): Promise<{ id: string; impact: string | null; help: string; targets: string[] }[]> {
  const violations = (await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: unknown[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: {
        type: "tag",
        values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
      },
    });
    return result.violations;
  })) as AxeViolation[];
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
}
