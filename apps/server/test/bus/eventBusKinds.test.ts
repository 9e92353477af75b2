import { describe, expect, it } from 'vitest';
import { InProcessEventBus, onEach, type RealtimeEvent } from '../../src/bus/eventBus.js';

const login: RealtimeEvent = { kind: 'locationProfileChanged', E_ID: 3 };
const changed: RealtimeEvent = { kind: 'usersChanged', E_ID: 3, UserIDs: [1] };

describe('EventBus.on: a subscriber names the kinds it takes', () => {
  it('delivers only the named kind, in the order listeners were added, next to every-kind listeners', () => {
    const errors: unknown[] = [];
    const bus = new InProcessEventBus((error) => errors.push(error));
    const heard: string[] = [];
    bus.subscribe((event) => heard.push(`all:${event.kind}`));
    const off = bus.on('usersChanged', (event) => heard.push(`users:${event.UserIDs.join()}`));
    bus.on('usersChanged', () => {
      throw new Error('a listener that throws');
    });
    bus.subscribe((event) => heard.push(`last:${event.kind}`));
    bus.publish(login);
    bus.publish(changed);
    expect(heard).toEqual([
      'all:locationProfileChanged',
      'last:locationProfileChanged',
      'all:usersChanged',
      'users:1',
      'last:usersChanged',
    ]);
    expect(errors).toHaveLength(1);
    off();
    heard.length = 0;
    bus.publish(changed);
    expect(heard).toEqual(['all:usersChanged', 'last:usersChanged']);
  });

  it('onEach registers one handler per kind and removes them all at once', () => {
    const bus = new InProcessEventBus(() => undefined);
    const heard: string[] = [];
    const off = onEach(bus, {
      usersChanged: (event) => heard.push(`users ${event.E_ID}`),
      locationProfileChanged: (event) => heard.push(`profile ${event.E_ID}`),
    });
    bus.publish(changed);
    bus.publish(login);
    off();
    bus.publish(changed);
    expect(heard).toEqual(['users 3', 'profile 3']);
  });
});
