import type { Confidence } from "../../src/dataset.js";

/**
 * Confidence of each known rolzitting schedule. courts.json describes the age and origin of each
 * schedule in free text; this table turns that into the package's three levels, by one rule:
 *
 * - `hoog`: a current official text of the court, dated within the last two years. None qualifies.
 * - `middel`: the court's own publication (Staatscourant reglement, or rechtspraak.nl pages of the
 *   new site, or two of its pages that agree), not known to be superseded.
 * - `laag`: a single undated page of the old rechtspraak.nl site, or a schedule with missing parts.
 *
 * The build fails when a location with rolzittingen has no entry here, or an entry names a location
 * without rolzittingen, so a data update cannot silently skip this judgement
 * (docs/decisions/rol-router-schedule-confidence.md).
 */
export const SCHEDULE_ASSESSMENT: Record<string, { confidence: Confidence; note: string }> = {
  Amsterdam: {
    confidence: "middel",
    note: "rolzittingen en lettertabel van de rechtspraak.nl-pagina Kantonzaken van rechtbank Amsterdam (ongedateerd)",
  },
  "Den Haag": {
    confidence: "middel",
    note: "rolzittingdagen uit het bijzonder reglement, Stcrt. 2020, 3974; de verdeling over de vier dagen staat niet in de bewaarde kopie",
  },
  Gouda: {
    confidence: "middel",
    note: "rolzitting uit het bijzonder reglement, Stcrt. 2020, 3974",
  },
  Assen: {
    confidence: "middel",
    note: "twee rechtspraak.nl-pagina's van rechtbank Noord-Nederland (zaaksverdelingsreglement 2016 en 2021) stemmen overeen",
  },
  Groningen: {
    confidence: "middel",
    note: "twee rechtspraak.nl-pagina's van rechtbank Noord-Nederland (zaaksverdelingsreglement 2016 en 2021) stemmen overeen",
  },
  Leeuwarden: {
    confidence: "middel",
    note: "twee rechtspraak.nl-pagina's van rechtbank Noord-Nederland (zaaksverdelingsreglement 2016 en 2021) stemmen overeen",
  },
  Rotterdam: {
    confidence: "laag",
    note: "dagen en letters van een ongedateerde pagina van de oude rechtspraak.nl-site (Letterverdeling kanton); aanvangstijd onbekend",
  },
};
