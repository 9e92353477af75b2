import type { EventBus, LiveUser } from '../bus/eventBus.js';

/** Users per `users` event: one Redis message stays a few hundred KiB at most. */
export const HAND_OVER_BATCH = 500;

/**
 * Answers a starting instance's `liveStateWanted`: the current entries of the terminal users
 * connected here, as `users` batches per enterprise. Only the instance holding a terminal's socket
 * speaks for it, and its own earlier events about that user are ahead of these on the same Redis
 * connection, so a batch never undoes a newer change. Without it a restarted instance's consoles
 * would miss users connected elsewhere until their next report (up to one report interval).
 */
export function publishLiveHandOver(
  bus: EventBus,
  connected: Iterable<{ E_ID: number; U_ID: number }>,
  current: (E_ID: number, U_ID: number) => LiveUser | undefined,
): number {
  const byEnterprise = new Map<number, LiveUser[]>();
  let count = 0;
  for (const { E_ID, U_ID } of connected) {
    const user = current(E_ID, U_ID);
    if (!user) continue;
    let users = byEnterprise.get(E_ID);
    if (!users) byEnterprise.set(E_ID, (users = []));
    users.push(user);
    count += 1;
    if (users.length >= HAND_OVER_BATCH) {
      bus.publish({ kind: 'users', E_ID, users });
      byEnterprise.set(E_ID, []);
    }
  }
  for (const [E_ID, users] of byEnterprise) if (users.length > 0) bus.publish({ kind: 'users', E_ID, users });
  return count;
}
