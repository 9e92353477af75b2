/**
 * Marks a translation key that is stored (route titles, column headers) and translated later with
 * `t(key)`. It changes nothing at run time; the locale test collects every `tk('...')` and `t('...')`.
 */
export function tk<K extends string>(key: K): K {
  return key;
}
