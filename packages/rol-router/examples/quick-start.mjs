// Run from the repository root after `pnpm --filter @incasso/rol-router build`:
//   node packages/rol-router/examples/quick-start.mjs
// The package imports itself by name (Node resolves a package's own name through its exports map).
import {
  createRolRouter,
  deriveMaatgevendeLetter,
  isRolRouterError,
  lookupRolRouter,
  RolRouterRequestSchema,
} from "@incasso/rol-router";

const today = "2026-11-23";

// The endpoint's request object in, the RolRouterResult wire object out.
const request = RolRouterRequestSchema.parse({ woonplaats: "Assen", naam: "van der Berg B.V." });
const result = lookupRolRouter(request, { today });
console.log(result.status, result.rechtbank, result.kantonlocatie, result.maatgevende_letter);
// ok Rechtbank Noord-Nederland Assen B
console.log(
  result.roldagen[0].weekdag_naam,
  result.roldagen[0].roltijd,
  result.roldagen[0].vroegste_roldatum,
);
// dinsdag 10:00 2026-12-08
console.log(result.betrouwbaarheid);
// { arrondissement: 'hoog', kantonlocatie: 'laag', rolzitting: 'middel' }

// A duplicated name is ambiguous until gemeente or provincie settles it.
console.log(
  lookupRolRouter({ woonplaats: "Hengelo", naam: "Jansen" }, { today }).opties.map((o) => o.gemeente),
);
// [ 'Hengelo (O.)', 'Bronckhorst' ]

// Unknown data is never guessed: Den Haag's four roll days have no known split.
const denHaag = lookupRolRouter({ woonplaats: "Den Haag", naam: "de Vries" }, { today });
console.log(denHaag.status, denHaag.ontbrekend); // incomplete [ 'letterverdeling' ]

// A host that knows more fills the gap once, at start-up.
const router = createRolRouter({
  serviceDays: 3,
  overrides: {
    locations: {
      Leiden: {
        sessions: [{ weekday: "woensdag", time: "10:00", letters: null }],
        scheduleConfidence: "hoog",
        scheduleNote: "navraag bij de griffie, november 2026",
      },
    },
  },
});
console.log(router.lookup({ woonplaats: "Leiden", naam: "Jansen" }, { today }).status); // ok

console.log(deriveMaatgevendeLetter("'t Hart")); // H

try {
  lookupRolRouter({ woonplaats: "", naam: "Jansen" });
} catch (error) {
  if (isRolRouterError(error)) console.log(error.code, error.errors[0].field); // invalid_request woonplaats
}
