import { talkStatusOf } from './talkStatusOf';
import type { TalkStore } from './TalkStore';
import { TalkError, type TalkStatus, type TalkTransport } from './talkTypes';

/** The transport in use, and the one way commands reach it. */
export class TalkLink {
  /** Set by TalkClient when it picks the agent or this browser; null while signed out. */
  transport: TalkTransport | null = null;

  constructor(private readonly store: TalkStore) {}

  /** Runs a command; a failure becomes its SPEC.md 8 status and is rethrown. */
  async run<T>(work: (transport: TalkTransport) => Promise<T>, okStatus?: TalkStatus): Promise<T> {
    const transport = this.transport;
    try {
      if (!transport || this.store.getState().connection !== 'connected') throw new TalkError('server_unreachable');
      const result = await work(transport);
      if (okStatus) this.store.status(okStatus);
      return result;
    } catch (error) {
      this.store.status(talkStatusOf(error));
      throw error;
    }
  }

  /** Inside a command: refused while no seat is logged in. */
  needSeat(): void {
    if (!this.store.getState().seat) throw new TalkError('not_logged_in');
  }
}
