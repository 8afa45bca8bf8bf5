/** The languages the payment pages speak. */
export const PAGE_LANGUAGES = ["ru", "en"] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

/**
 * The language when the request names neither: no Accept-Language (curl, bots) or only other
 * languages (`de`, `zh`). A Russian browser always asks for `ru`, so the default serves the rest,
 * who are likelier to read English than Russian.
 */
export const DEFAULT_PAGE_LANGUAGE: PageLanguage = "en";

// RFC 9110 12.5.4: a language range (RFC 4647 basic range, or `*`) and an optional weight.
const RANGE = /^(?:[a-z]{1,8}(?:-[a-z0-9]{1,8})*|\*)$/;
const WEIGHT = /^q=(0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/;

interface Preference {
  readonly range: string;
  readonly q: number;
  /** Where the range stands in the header: the tie-break between equal weights. */
  readonly at: number;
}

/** The header's well-formed ranges with their weights, in order; malformed ones are left out. */
function preferences(header: string): Preference[] {
  const found: Preference[] = [];
  for (const item of header.toLowerCase().split(",")) {
    const [range = "", ...params] = item.split(";").map((part) => part.trim());
    if (!RANGE.test(range)) continue;
    const weight = params.find((param) => param.startsWith("q"));
    const q = weight === undefined ? "1" : WEIGHT.exec(weight.replace(/\s+/g, ""))?.[1];
    if (q !== undefined) found.push({ range, q: Number(q), at: found.length });
  }
  return found;
}

/** How much the header wants `language`: its best own range (`ru`, `ru-RU`), else `*`; null: not at all. */
function weightOf(language: PageLanguage, listed: readonly Preference[]): Preference | null {
  const own = listed.filter(({ range }) => range === language || range.startsWith(`${language}-`));
  const matching = own.length > 0 ? own : listed.filter(({ range }) => range === "*");
  return matching.reduce<Preference | null>((best, p) => (best === null || p.q > best.q ? p : best), null);
}

/**
 * The page language for a request's `Accept-Language`: the one the payer weighs highest, `ru` and
 * `ru-RU` alike naming Russian, `*` any language not named otherwise, `q=0` a refusal; between
 * equal weights, the one listed first; the default when neither is acceptable.
 */
export function negotiateLanguage(header: string | undefined): PageLanguage {
  if (header === undefined) return DEFAULT_PAGE_LANGUAGE;
  const listed = preferences(header);
  let best: { language: PageLanguage; weight: Preference } | null = null;
  // The default first: when both languages come from one `*`, it wins the tie.
  const candidates = [DEFAULT_PAGE_LANGUAGE, ...PAGE_LANGUAGES.filter((l) => l !== DEFAULT_PAGE_LANGUAGE)];
  for (const language of candidates) {
    const weight = weightOf(language, listed);
    if (weight === null || weight.q === 0) continue;
    if (
      best === null ||
      weight.q > best.weight.q ||
      (weight.q === best.weight.q && weight.at < best.weight.at)
    )
      best = { language, weight };
  }
  return best?.language ?? DEFAULT_PAGE_LANGUAGE;
}
