import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { inspectPdf } from "@incasso/pdf-guard";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderWikLetterPdf } from "./render-wik-letter.js";
import { composeWikLetter, type WikLetterInput } from "./wik-letter.js";

// Issue 32, item 2: pdf-lib and the packages it pulls in are bundled into the built dist
// (tsup.config.ts), so a host does not install pdf-lib's 23 MB for the 14-day letter. This packs
// @incasso/case-system as a release packs it (`npm pack`: the files its manifest lists), lays it out
// as an install would with its dependencies beside it and no pdf-lib anywhere it can reach, and
// makes a letter from it in a Node process of its own. render-wik-letter.test.ts checks the
// letter from the sources. Needs `pnpm build` first, as the README's test command does.
const pkgDir = fileURLToPath(new URL("../", import.meta.url));
const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const BUNDLED = ["@pdf-lib/standard-fonts", "@pdf-lib/upng", "pako", "pdf-lib", "tslib"];
const DATE = "2026-11-21T09:00:00.000Z";

// 45 invoices: the invoice table runs onto a second page.
const input: WikLetterInput = {
  letterDate: "2026-11-21",
  caseNumber: "2026-000321",
  reference: "R-321",
  creditorName: "Acme BV",
  debtors: [
    {
      name: "Jan de Vries",
      address: {
        street: "Teststraat",
        house_number: "10",
        house_number_suffix: null,
        postal_code: "9999 ZZ",
        city: "Testdorp",
        country: "NL",
      },
    },
  ],
  invoices: Array.from({ length: 45 }, (_, i) => ({
    invoiceNumber: `F-${i + 1}`,
    invoiceDate: "2026-10-01",
    dueDate: "2026-10-15",
    amountCents: 10_000,
  })),
  paidCents: 0,
  sender: {
    name: "Incassobureau Voorbeeld B.V.",
    street: "Keizersgracht 100",
    postalCode: "1015 AA",
    city: "Amsterdam",
    iban: "NL91ABNA0417164300",
    bic: "ABNANL2A",
    kvkNumber: "12345678",
    phone: "020 123 4567",
    email: "info@voorbeeld.nl",
  },
};

// Run in the install as a host runs the package: plain Node, resolving by name.
const RENDER = `
import { readFileSync, writeFileSync } from "node:fs";
import { composeWikLetter, renderWikLetterPdf } from "@incasso/case-system";
let pdfLib = "not found";
try { pdfLib = import.meta.resolve("pdf-lib"); } catch {}
const input = JSON.parse(readFileSync("input.json", "utf8"));
const bytes = await renderWikLetterPdf(composeWikLetter(input), { date: new Date(process.argv[2]) });
writeFileSync("letter.pdf", bytes);
console.log(JSON.stringify({ pdfLib }));
`;

let install = "";
let packedFiles: string[] = [];

beforeAll(() => {
  if (!existsSync(join(pkgDir, "dist", "index.js"))) {
    throw new Error("packages/case-system/dist is missing: run `pnpm build` before this test");
  }
  install = mkdtempSync(join(tmpdir(), "incasso-case-system-dist-"));
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--pack-destination", install, pkgDir], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }),
  ) as { filename: string; files: { path: string }[] }[];
  if (packed === undefined) throw new Error("npm pack packed nothing");
  packedFiles = packed.files.map((f) => f.path).sort();
  const target = join(install, "node_modules", "@incasso", "case-system");
  mkdirSync(target, { recursive: true });
  execFileSync("tar", ["-xzf", join(install, packed.filename), "-C", target, "--strip-components=1"]);
  // Its dependencies as the workspace installed them (the @incasso ones built), beside it.
  for (const dep of Object.keys(manifest.dependencies)) {
    const link = join(install, "node_modules", dep);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(realpathSync(join(pkgDir, "node_modules", dep)), link, "dir");
  }
}, 120_000);

afterAll(() => {
  if (install) rmSync(install, { recursive: true, force: true });
});

describe("@incasso/case-system as packed, pdf-lib bundled", () => {
  it("depends on pdf-lib only to build, and packs the bundle with the bundled packages' licences", () => {
    expect(Object.keys(manifest.dependencies)).not.toContain("pdf-lib");
    expect(manifest.devDependencies["pdf-lib"]).toBe("1.17.1");
    // Besides the JavaScript and the declaration files (one per source file, written by tsc).
    expect(packedFiles.filter((f) => !f.endsWith(".js") && !f.endsWith(".d.ts"))).toEqual([
      "README.md",
      "dist/THIRD-PARTY-LICENSES.txt",
      "dist/third-party.json",
      "package.json",
    ]);
    expect(packedFiles).toContain("dist/index.d.ts");
    expect(packedFiles.filter((f) => f.includes("pdf-lib") || f.includes("pako"))).toEqual([]);
    const record = JSON.parse(readFileSync(join(pkgDir, "dist", "third-party.json"), "utf8"));
    expect(record).toEqual([
      {
        name: "@pdf-lib/standard-fonts",
        version: "1.0.0",
        license: "MIT",
        homepage: "https://github.com/Hopding/standard-fonts",
      },
      {
        name: "@pdf-lib/upng",
        version: "1.0.1",
        license: "MIT",
        homepage: "https://github.com/Hopding/upng",
      },
      {
        name: "pako",
        version: "1.0.11",
        license: "(MIT AND Zlib)",
        homepage: "https://github.com/nodeca/pako",
      },
      { name: "pdf-lib", version: "1.17.1", license: "MIT", homepage: "https://pdf-lib.js.org" },
      { name: "tslib", version: "1.14.1", license: "0BSD", homepage: "https://www.typescriptlang.org/" },
    ]);
    const licences = readFileSync(join(pkgDir, "dist", "THIRD-PARTY-LICENSES.txt"), "utf8");
    for (const line of [
      "pdf-lib 1.17.1",
      "License: MIT",
      "Copyright (c) 2019 Andrew Dillon",
      "// (C) 1995-2013 Jean-loup Gailly and Mark Adler",
      " * Copyright 2012 Mozilla Foundation",
      "Copyright (c) Microsoft Corporation.",
    ]) {
      expect(licences.split("\n")).toContain(line);
    }
  });

  it("imports none of the bundled packages by name, and names them at the top of the chunk holding them", () => {
    const scripts = packedFiles.filter((f) => f.endsWith(".js"));
    const bare = new RegExp(`(?:from|import\\()\\s*["'](?:${BUNDLED.join("|")})(?:/[^"']*)?["']`);
    const importing = scripts.filter((f) => bare.test(readFileSync(join(pkgDir, f), "utf8")));
    expect(importing).toEqual([]);
    const banners = scripts
      .map((f) => readFileSync(join(pkgDir, f), "utf8").split("\n")[0])
      .filter((line) => line?.startsWith("/*! Bundled:"));
    expect(banners).toEqual([
      "/*! Bundled: @pdf-lib/standard-fonts 1.0.0 (MIT), @pdf-lib/upng 1.0.1 (MIT), pako 1.0.11 ((MIT AND Zlib)), pdf-lib 1.17.1 (MIT), tslib 1.14.1 (0BSD). Licences: THIRD-PARTY-LICENSES.txt */",
    ]);
  });

  it("makes the 14-day letter without pdf-lib installed, the same bytes as from the sources", async () => {
    writeFileSync(join(install, "input.json"), JSON.stringify(input));
    writeFileSync(join(install, "render.mjs"), RENDER);
    const out = execFileSync(process.execPath, ["render.mjs", DATE], { cwd: install, encoding: "utf8" });
    expect(JSON.parse(out)).toEqual({ pdfLib: "not found" });
    const bytes = new Uint8Array(readFileSync(join(install, "letter.pdf")));

    const inspected = await inspectPdf(bytes);
    if (!inspected.ok) throw new Error(inspected.message);
    expect(inspected.page_count).toBe(2);
    const text = inspected.text.replace(/\s+/g, " ");
    expect(text).toContain("2026-000321");
    expect(text).toContain("F-1 ");
    expect(text).toContain("F-45 ");
    expect(text).toContain("€ 4.500,00");

    const fromSources = await renderWikLetterPdf(composeWikLetter(input), { date: new Date(DATE) });
    expect(Buffer.from(bytes).equals(Buffer.from(fromSources))).toBe(true);
  }, 60_000);
});
