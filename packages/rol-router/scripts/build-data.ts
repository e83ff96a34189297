/**
 * Rebuilds src/data/bundle.generated.ts from the reference files.
 *
 *   pnpm --filter @incasso/rol-router build:data [path/to/data/rol-router]
 *
 * The default path is ../shared/data/rol-router relative to the repository root.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type RawInputs, serialise, transform } from "./internal/transform.js";

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = resolve(here, "..");
const dataDir = resolve(process.argv[2] ?? join(packageDir, "../../../shared/data/rol-router"));

const read = (name: keyof RawInputs) => readFileSync(join(dataDir, name), "utf8");
const inputs: RawInputs = {
  "woonplaatsen.csv": read("woonplaatsen.csv"),
  "gemeenten.csv": read("gemeenten.csv"),
  "gemeente-kanton.csv": read("gemeente-kanton.csv"),
  "courts.json": read("courts.json"),
};
const dataset = transform(inputs);
const target = join(packageDir, "src/data/bundle.generated.ts");
writeFileSync(target, serialise(dataset));
const places = dataset.municipalities.reduce((n, m) => n + m.places.length, 0);
console.log(
  `wrote ${target}: version ${dataset.version}, ${dataset.municipalities.length} gemeenten, ${places} woonplaatsen, ${dataset.locations.length} locaties`,
);
