// The calendar date in the Netherlands: invoice dates, due dates, payment dates and "today" are
// Dutch calendar dates (spec: "Dates are YYYY-MM-DD"), whatever the server's time zone. One
// function for every package, @incasso/wik's.
export { amsterdamDate } from "@incasso/wik";
