import { defineConfig } from "tsup";

// pdf-lib and the packages it pulls in are bundled into dist, so a host does not download pdf-lib's
// 23 MB (five copies of it: UMD bundles, CommonJS, ES modules, sources, old typings) for the
// 14-day letter, which needs 0.8 MB of it (issue 32, item 2). Everything else stays
// external, as tsup leaves every dependency out. scripts/third-party-licences.mjs writes their
// licences beside the bundle from the metafile. The package's build script adds the rest of the
// options (entry, format, declaration files, target) on the command line.
const BUNDLED = ["pdf-lib", "@pdf-lib/standard-fonts", "@pdf-lib/upng", "pako", "tslib"];

export default defineConfig({
  // The root tsup.config.json's one option, which this file replaces: keep `node:` prefixes.
  removeNodeProtocol: false,
  noExternal: BUNDLED,
  metafile: true,
  esbuildOptions(options) {
    // The ES module builds (pdf-lib's `es/`, upng's `UPNG.js`) rather than CommonJS, so esbuild
    // can leave out what the letter does not use.
    options.mainFields = ["module", "main"];
  },
});
