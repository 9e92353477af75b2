import type { TerminalChannel } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { FieldSession, type ChannelPush } from '../session/fieldSession';
import { ChannelController } from './channelController';

const YARD: TerminalChannel = { cid: 1, name: 'Yard', online: 1, members: 2 };
const REGROUPED: ChannelPush = { type: 'regrouped', cid: 90, name: 'Spill', incident: 7 };

/** A signed-in session whose socket answers `channels` with the yard and records every `join`. */
function signedInSession() {
  const joined: number[] = [];
  const socket = {
    isOpen: true,
    on: () => () => undefined,
    request: (message: { type: string; cid?: number }) => {
      if (message.type === 'join') joined.push(message.cid as number);
      return Promise.resolve(message.type === 'channels' ? { type: 'ack', channels: [YARD] } : { type: 'ack' });
    },
  };
  const session = new FieldSession('ws://127.0.0.1:9/terminal');
  Object.defineProperty(session, 'socket', { get: () => socket });
  Object.defineProperty(session, 'state', { get: () => ({ kind: 'signedIn', online: true }) });
  return { session, joined };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('channel pushes that come before the radio screen', () => {
  it('a regrouping held by the session is shown when the screen starts, and its first refresh joins nothing else', async () => {
    const { session, joined } = signedInSession();
    session.channelPushed(REGROUPED);
    const controller = new ChannelController(session);
    controller.start();
    await settle();
    expect(controller.view.current).toEqual({ cid: 90, name: 'Spill' });
    expect(controller.view.banner).toEqual({ kind: 'incident', name: 'Spill', incident: 7 });
    expect(joined).toEqual([]);
  });

  it('without a held push the first refresh joins the first channel; a held push is given once', async () => {
    const { session, joined } = signedInSession();
    const controller = new ChannelController(session);
    controller.start();
    await settle();
    expect(joined).toEqual([1]);
    expect(controller.view.banner).toBeUndefined();

    const heard: ChannelPush[] = [];
    const other = new FieldSession('ws://127.0.0.1:9/terminal');
    other.channelPushed(REGROUPED);
    other.onChannelPush((message) => heard.push(message));
    other.onChannelPush((message) => heard.push(message));
    expect(heard).toEqual([REGROUPED]);
  });
});
