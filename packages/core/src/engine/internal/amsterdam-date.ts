// The calendar date in the Netherlands: invoice dates, due dates, payment dates and "today" are
// Dutch calendar dates (spec: "Dates are YYYY-MM-DD"), whatever the server's time zone. The engine
// and the case system take it from @incasso/wik; @incasso/rol-router reads the same offset from
// @date-fns/tz itself (docs/decisions/dates-on-date-fns.md).
export { amsterdamDate } from "@incasso/wik";
