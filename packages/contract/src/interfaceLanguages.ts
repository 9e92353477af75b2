/*
 * The interface languages, apart from map.ts: the login page picks its language from this list,
 * and any contract module holding a zod schema would bring zod into the login page's JavaScript
 * (about 27 KB gzip; see imageNames.ts). Keep this file free of zod.
 */

/**
 * The console's interface languages (DESIGN.md section 9); English is the source and the fallback.
 * The offline tiles' countries are named in each besides Natural Earth's own `name`: a property
 * `name_<language>` (CLDR's common name, e.g. `name_zh` 中国), absent for the few areas without an
 * ISO 3166 code.
 */
export const INTERFACE_LANGUAGES = ['en', 'zh', 'es', 'ja'] as const;
