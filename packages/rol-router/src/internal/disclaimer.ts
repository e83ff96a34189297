import type { KantonLocation, Municipality } from "../dataset.js";

const BASE =
  "Indicatief, geen juridisch advies. Alleen de woonplaats van de gedaagde is gebruikt; bijzondere bevoegdheidsregels, forumkeuze en gedaagden zonder bekende woonplaats in Nederland vallen erbuiten. Controleer rechtbank, locatie en roldatum bij de rechtbank voordat u dagvaardt.";

const CBS = "Woonplaatsen: CBS, Woonplaatsen in Nederland 2026 (86312NED), CC BY 4.0.";

/** The source column reads `arr: …; kanton: …` (SOURCES.md); a host's own source may be free text. */
function splitSource(source: string): { arr: string; kanton: string } {
  const at = source.indexOf("; kanton: ");
  if (source.startsWith("arr: ") && at > 0)
    return { arr: source.slice(5, at), kanton: source.slice(at + 10) };
  return { arr: source, kanton: source };
}

/** Disclaimer naming the basis of this particular answer. */
export function disclaimerFor(
  m: Municipality | undefined,
  loc: KantonLocation | undefined,
  usedSchedule: boolean,
): string {
  if (!m) return `${BASE} ${CBS}`;
  const { arr, kanton } = splitSource(m.source);
  const parts = [BASE, `Arrondissement (betrouwbaarheid ${m.courtConfidence}): ${arr}.`];
  if (m.location && m.confidence) parts.push(`Kantonlocatie (betrouwbaarheid ${m.confidence}): ${kanton}.`);
  else parts.push(`Kantonlocatie onbekend: ${kanton}.`);
  if (loc && usedSchedule && loc.scheduleConfidence) {
    parts.push(
      `Rolzitting (betrouwbaarheid ${loc.scheduleConfidence}): ${loc.scheduleNote ?? "bron niet vermeld"}.`,
    );
  }
  parts.push(CBS);
  return parts.join(" ");
}
