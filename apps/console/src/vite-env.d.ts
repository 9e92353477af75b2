/// <reference types="vite/client" />

/** The login subset of one locale (vite.config.ts, plugin `login-messages`). */
declare module 'virtual:login-messages/*' {
  const messages: Record<string, unknown>;
  export default messages;
}
