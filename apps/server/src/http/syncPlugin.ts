/**
 * A Fastify plugin whose body only registers routes, hooks and decorators, so it has nothing to
 * await. It still hands Fastify a promise, as an `async` plugin does: a throw while registering
 * rejects `app.ready()` instead of escaping the plugin loader as an uncaught exception (what a
 * plugin that neither takes `done` nor returns a promise does).
 */
export function syncPlugin<Args extends unknown[]>(
  register: (...args: Args) => void,
): (...args: Args) => Promise<void> {
  return (...args) =>
    new Promise<void>((resolve) => {
      register(...args);
      resolve();
    });
}
