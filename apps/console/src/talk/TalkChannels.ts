import { CALL_ID_BASE, type TalkAgentEvent } from '@intercom/contract';
import type { TalkLink } from './TalkLink';
import { talkStatusOf } from './talkStatusOf';
import type { TalkStore } from './TalkStore';
import { TalkError, type FloorState, type MicState, type TalkState } from './talkTypes';

/** The events about the seat's channels, calls, floors and microphone. */
export type ChannelEvent = Extract<
  TalkAgentEvent,
  {
    event:
      'floorTaken' | 'floorIdle' | 'floorRevoked' | 'callStart' | 'callEnd' | 'micLevel' | 'regrouped' | 'channelLeft';
  }
>;

/**
 * Where the seat is: its current channel or call (where push-to-talk talks), the channels it
 * monitors besides, the floor of each, its private calls, and its microphone.
 */
export class TalkChannels {
  constructor(
    private readonly store: TalkStore,
    private readonly link: TalkLink,
  ) {}

  private get state(): TalkState {
    return this.store.getState();
  }

  private floor(cid: number, patch: Partial<FloorState>): Map<number, FloorState> {
    const floors = new Map(this.state.floors);
    const previous = floors.get(cid) ?? { cid, holder: null, since: Date.now(), mine: false };
    floors.set(cid, { ...previous, ...patch });
    return floors;
  }

  private named(cid: number, name: string | undefined): ReadonlyMap<number, string> {
    return name === undefined ? this.state.names : new Map(this.state.names).set(cid, name);
  }

  onEvent(event: ChannelEvent): void {
    switch (event.event) {
      case 'floorTaken': {
        const mine = event.uid === 0 && event.name === this.state.seat?.name && this.state.mic !== 'off';
        const holder = { uid: event.uid, name: event.name, priority: event.priority };
        this.store.set({ floors: this.floor(event.cid, { holder, since: Date.now(), mine }) });
        return;
      }
      case 'floorIdle': {
        const micOff = this.state.current === event.cid && this.state.mic === 'on';
        this.store.set({
          floors: this.floor(event.cid, { holder: null, since: Date.now(), mine: false }),
          ...(micOff ? { mic: 'off' as const, micLevel: 0 } : {}),
        });
        return;
      }
      case 'floorRevoked':
        this.store.set({ lastLoss: { cid: event.cid, reason: event.reason, at: Date.now() }, mic: 'off', micLevel: 0 });
        this.store.status({ key: 'preempted', level: 'warning', params: { reason: event.reason } });
        return;
      case 'callStart': {
        const calls = new Map(this.state.calls);
        const emergency = event.emergency === true;
        calls.set(event.cid, { cid: event.cid, peerUid: event.from, peerName: event.name, incoming: true, emergency });
        // An emergency call is offered to every seat: it becomes the current one only when answered.
        const current = emergency ? this.state.current : (this.state.current ?? event.cid);
        this.store.set({ calls, current, names: this.named(event.cid, event.name) });
        return;
      }
      case 'callEnd': {
        const calls = new Map(this.state.calls);
        calls.delete(event.cid);
        const floors = new Map(this.state.floors);
        floors.delete(event.cid);
        this.store.set({ calls, floors, current: this.state.current === event.cid ? null : this.state.current });
        return;
      }
      case 'micLevel':
        if (this.state.mic === 'on') this.store.set({ micLevel: event.level });
        return;
      case 'regrouped':
        // Put in an incident's channel: heard like a monitored one, under the incident's name.
        this.store.set({ floors: this.floor(event.cid, {}), names: this.named(event.cid, event.name) });
        return;
      case 'channelLeft': {
        // Removed from the channel (or its incident ended): it is heard no more.
        const floors = new Map(this.state.floors);
        floors.delete(event.cid);
        const wasCurrent = this.state.current === event.cid;
        const monitored = this.state.monitored.filter((cid) => cid !== event.cid);
        this.store.set({
          floors,
          monitored,
          ...(wasCurrent ? { current: null, mic: 'off' as const, micLevel: 0 } : {}),
        });
        return;
      }
    }
  }

  /**
   * After a reconnect (agent restarted, platform lost) the new seat has joined nothing: the current
   * channel and the monitored ones are joined again; a private call did not survive.
   */
  rejoin(): void {
    const current = this.state.current;
    if (current !== null && current >= CALL_ID_BASE) this.store.set({ current: null });
    else if (current !== null) {
      void this.link
        .run((transport) => transport.groupCall(current))
        .then(() =>
          this.store.set({ floors: this.state.floors.has(current) ? this.state.floors : this.floor(current, {}) }),
        )
        .catch(() => this.store.set({ current: this.state.current === current ? null : this.state.current }));
    }
    if (this.state.monitored.length > 0) void this.monitor(this.state.monitored).catch(() => undefined);
  }

  async groupCall(cid: number, name?: string): Promise<void> {
    await this.link.run(
      async (transport) => {
        this.link.needSeat();
        await transport.groupCall(cid);
      },
      { key: 'command_sent', level: 'success' },
    );
    this.store.set({
      current: cid,
      names: this.named(cid, name),
      floors: this.state.floors.has(cid) ? this.state.floors : this.floor(cid, {}),
    });
  }

  async privateCall(uid: number, name = String(uid)): Promise<number> {
    const cid = await this.link.run(
      async (transport) => {
        this.link.needSeat();
        return transport.privateCall(uid);
      },
      { key: 'command_sent', level: 'success' },
    );
    const calls = new Map(this.state.calls);
    calls.set(cid, { cid, peerUid: uid, peerName: name, incoming: false });
    this.store.set({ calls, current: cid, floors: this.floor(cid, {}), names: this.named(cid, name) });
    return cid;
  }

  /** Takes an offered emergency call as the current one: push-to-talk then talks in it. */
  async answerCall(cid: number): Promise<void> {
    await this.link.run(
      async (transport) => {
        this.link.needSeat();
        await transport.answerCall(cid);
      },
      { key: 'command_sent', level: 'success' },
    );
    this.store.set({ current: cid, floors: this.state.floors.has(cid) ? this.state.floors : this.floor(cid, {}) });
  }

  /** Leaves the channel or hangs up the call (default: the current one). */
  async endCall(cid = this.state.current ?? undefined): Promise<void> {
    if (cid === undefined) return;
    await this.link.run(
      async (transport) => {
        this.link.needSeat();
        await transport.endCall(cid);
      },
      { key: 'command_sent', level: 'success' },
    );
    const calls = new Map(this.state.calls);
    calls.delete(cid);
    const floors = new Map(this.state.floors);
    if (cid >= CALL_ID_BASE || !this.state.monitored.includes(cid)) floors.delete(cid);
    this.store.set({ calls, floors, current: this.state.current === cid ? null : this.state.current, mic: 'off' });
  }

  /** Read again after an await: a release may have come in between. */
  private micNow(): MicState {
    return this.state.mic;
  }

  /** Push-to-talk pressed: ask for the floor of the current channel or call. */
  async applyMic(): Promise<void> {
    if (this.state.mic !== 'off') return;
    const cid = this.state.current;
    this.store.set({ mic: 'requesting', lastLoss: null });
    try {
      await this.link.run(
        async (transport) => {
          this.link.needSeat();
          if (cid === null) throw new TalkError('no_channel');
          await transport.applyMic(cid);
        },
        { key: 'mic_apply_success', level: 'success' },
      );
      // Released (or lost) while the request was on its way: give the floor back at once.
      if (this.micNow() !== 'requesting') {
        void this.link.transport?.freeMic(cid!).catch(() => undefined);
        return;
      }
      this.store.set({ mic: 'on', floors: this.floor(cid!, { mine: true }) });
    } catch (error) {
      if (this.micNow() === 'requesting') this.store.set({ mic: 'off' });
      throw error;
    }
  }

  /** Push-to-talk released. */
  async freeMic(): Promise<void> {
    const cid = this.state.current;
    const was = this.state.mic;
    if (was === 'off' || cid === null) return;
    this.store.set({ mic: 'off', micLevel: 0, floors: this.floor(cid, { mine: false }) });
    if (was === 'requesting') return;
    await this.link.run((transport) => transport.freeMic(cid), { key: 'mic_release_success', level: 'success' });
  }

  /** Listen to these channels besides the current one (replaces the set). */
  async monitor(cids: readonly number[], names?: ReadonlyMap<number, string>): Promise<void> {
    const failures = await this.link.run(async (transport) => {
      this.link.needSeat();
      return (await transport.monitor(cids)) ?? [];
    });
    // A channel the seat may not hear is not shown as listened to; the first refusal says why.
    const failed = new Set(failures.map((failure) => failure.cid));
    if (failures[0]) this.store.status(talkStatusOf(new TalkError(failures[0].code)));
    cids = cids.filter((cid) => !failed.has(cid));
    let floors = this.state.floors;
    for (const cid of cids)
      if (!floors.has(cid)) floors = new Map(floors).set(cid, { cid, holder: null, since: Date.now(), mine: false });
    this.store.set({
      monitored: [...cids],
      floors,
      names: names ? new Map([...this.state.names, ...names]) : this.state.names,
    });
  }
}
