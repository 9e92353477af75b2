import type { Notification } from '@intercom/contract';
import type { LiveState } from '../../src/live/liveState.js';

/** Alarms the live state hands to the hub while `work` runs. */
export async function pushedDuring(live: LiveState, work: () => Promise<void>): Promise<Notification[]> {
  const seen: Notification[] = [];
  const stop = live.onChange((change) => {
    if (change.kind === 'notification') seen.push(JSON.parse(change.json) as Notification);
  });
  try {
    await work();
  } finally {
    stop();
  }
  return seen;
}
