/**
 * The top-level key groups the login route shows: its own texts, the shared words, and every
 * message a failed login or a broken connection may bring. Only these ship with the first chunk;
 * the rest of a locale loads after sign-in (see i18n.ts and the `login-messages` Vite plugin).
 */
export const LOGIN_NAMESPACES = ['app', 'common', 'error', 'login', 'session', 'validation'] as const;

/** The module id of a language's login subset. */
export const LOGIN_MESSAGES_PREFIX = 'virtual:login-messages/';
