/**
 * The disclaimer of every result: what a person reads before relying on the answer, in Dutch like
 * the rest of the result. Where each part of the answer comes from, and how sure it is, is per
 * field in `bronnen` and `betrouwbaarheid`; the data's credit lines are in `bronvermelding`
 * (decision rol-router-result-shape).
 */
export const DISCLAIMER =
  "Indicatief en geen juridisch advies: alleen de woonplaats van de gedaagde is gebruikt, niet bijzondere bevoegdheidsregels of een forumkeuze. " +
  "Controleer rechtbank, kantonlocatie en roldatum bij de rechtbank voordat u dagvaardt.";
