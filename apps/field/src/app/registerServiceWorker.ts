/**
 * Registers `/field/sw.js` for the scope `/field` (the server allows it with Service-Worker-Allowed),
 * so the app shell opens without a network. Not in `vite dev`, whose files are not the build's.
 */
export function registerServiceWorker(): void {
  if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/field/sw.js', { scope: '/field' }).catch(() => undefined);
  });
}
