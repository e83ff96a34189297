export { apiReferencePage } from "./api-reference-page.js";
export { escapeHtml, jsonForScript } from "./html-escape.js";
export { type PageLanguage, pageLanguage } from "./page-language.js";
export { type PageLayoutInput, pageLayout } from "./page-layout.js";
export { CLIENT_TEXTS, PAGE_TEXTS } from "./page-texts.js";
export { type PagesOptions, pagesPlugin } from "./pages-plugin.js";
export { chooseCoding, StaticAsset } from "./static-asset.js";
export { courtPage, type PagePaths, toolsIndexPage, wikPage } from "./tool-pages.js";
