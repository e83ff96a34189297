/**
 * The languages of the public pages. Dutch comes first: the tools apply Dutch law and most of
 * their users are Dutch creditors, debtors and their advisers (decision pages-language).
 *
 * @example
 * const lang: PageLanguage = "nl";
 */
export type PageLanguage = "nl" | "en";

/**
 * The page's language from its `lang` query parameter: `en` for English, Dutch otherwise, so a
 * link without the parameter always opens the Dutch page.
 *
 * @example
 * pageLanguage(new URL("http://x/tools/wik?lang=en")); // "en"
 * pageLanguage(new URL("http://x/tools/wik")); // "nl"
 */
export function pageLanguage(url: URL): PageLanguage {
  return url.searchParams.get("lang") === "en" ? "en" : "nl";
}
