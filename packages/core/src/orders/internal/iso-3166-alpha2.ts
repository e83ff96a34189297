// The officially assigned ISO 3166-1 alpha-2 country codes (249 codes).
//
// Source: the time zone database's `iso3166.tab` (tzdata 2025b, Debian package
// 2025b-0+deb12u2), which is in the public domain and states that its codes are "current as of
// ISO/TC 46 N1108 (2023-04-05)". Cross-checked against Debian `iso-codes` 4.15.0
// (`iso_3166-1.json`): both list the same 249 codes. Only the codes are taken, no names.
// Reserved, user-assigned and withdrawn codes (EU, UK, XK, AN, ...) are deliberately absent.
// To refresh: take column 1 of a newer `iso3166.tab` and compare with the newer `iso-codes`.
const CODES = `
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ
BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM
DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS
GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN
KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ
MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM
PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV
SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI
VN VU WF WS YE YT ZA ZM ZW
`;

/** The assigned ISO 3166-1 alpha-2 codes, sorted. */
export const ISO_3166_ALPHA2: ReadonlySet<string> = new Set(CODES.trim().split(/\s+/));
