import type { TerminalChannel } from '@intercom/contract';
import type { ChannelPush, FieldSession } from '../session/fieldSession';
import { Listeners } from '../shared/listeners';

export type ChannelBanner =
  | { kind: 'incident'; name: string; incident: number }
  | { kind: 'left'; reason: 'removed' | 'left_zone' | 'incident_closed' };

export interface ChannelView {
  channels: TerminalChannel[];
  /** The channel the terminal has joined (what it hears and talks in). */
  current: { cid: number; name: string } | undefined;
  banner: ChannelBanner | undefined;
}

const PREFERRED_KEY = 'intercom.field.channel';

function readPreferred(): number | undefined {
  try {
    const value = Number(localStorage.getItem(PREFERRED_KEY));
    return Number.isInteger(value) && value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

function writePreferred(cid: number): void {
  try {
    localStorage.setItem(PREFERRED_KEY, String(cid));
  } catch {
    // Not kept: the first channel is joined next time.
  }
}

/**
 * The channel header's state: the user's channels (`channels`, again on `channelsChanged`), the one
 * joined (`join`; after each login the one chosen last, else the first), an incident's regrouping
 * (`regrouped`) and a channel left without asking (`channelLeft`, with its reason).
 */
export class ChannelController {
  private current: ChannelView = { channels: [], current: undefined, banner: undefined };
  private readonly listeners = new Listeners();

  constructor(private readonly session: FieldSession) {}

  subscribe = this.listeners.subscribe;

  get view(): ChannelView {
    return this.current;
  }

  start(): () => void {
    const offReady = this.session.onReady(() => void this.refresh(true));
    const socket = this.session.socket;
    const offPush = socket?.on('push', (message) => {
      if (message.type === 'channelsChanged') void this.refresh(false);
    });
    // First: a regrouping that came while this screen loaded is applied before the first refresh.
    const offMoved = this.session.onChannelPush((message) => this.onMoved(message));
    if (socket?.isOpen && this.session.state.kind === 'signedIn' && this.session.state.online) void this.refresh(true);
    return () => {
      offReady();
      offPush?.();
      offMoved();
    };
  }

  /** The worker picked `cid` in the switcher. */
  async choose(cid: number): Promise<void> {
    this.dismissBanner();
    await this.switchTo(cid);
  }

  /** Joins `cid` and keeps it as the one to join after the next login. */
  private async switchTo(cid: number): Promise<void> {
    const socket = this.session.socket;
    if (!socket) return;
    try {
      await socket.request({ type: 'join', cid });
    } catch {
      await this.refresh(false);
      return;
    }
    writePreferred(cid);
    const name = this.current.channels.find((channel) => channel.cid === cid)?.name ?? '';
    this.update({ current: { cid, name } });
  }

  dismissBanner(): void {
    this.update({ banner: undefined });
  }

  /** Asks for the list; with `join`, (re)joins the current, chosen or first channel. */
  async refresh(join: boolean): Promise<void> {
    const socket = this.session.socket;
    if (!socket?.isOpen) return;
    let channels: TerminalChannel[];
    try {
      const ack = await socket.request({ type: 'channels' });
      channels = (ack.channels as TerminalChannel[] | undefined) ?? [];
    } catch {
      return;
    }
    const current = this.current.current;
    const named = current && channels.find((channel) => channel.cid === current.cid);
    this.update({ channels, current: named ? { cid: named.cid, name: named.name } : current });
    // Regrouped into an incident: the worker stays there until it ends or they choose another.
    if ((!join && current) || this.current.banner?.kind === 'incident') return;
    const target = this.pick(channels);
    if (target !== undefined) await this.switchTo(target);
  }

  private pick(channels: readonly TerminalChannel[]): number | undefined {
    const wanted = [this.current.current?.cid, readPreferred()];
    for (const cid of wanted) if (cid !== undefined && channels.some((channel) => channel.cid === cid)) return cid;
    return channels[0]?.cid;
  }

  private onMoved(message: ChannelPush): void {
    if (message.type === 'channelLeft') this.onLeft(message.cid, message.reason);
    if (message.type === 'regrouped') {
      this.update({
        current: { cid: message.cid, name: message.name },
        banner: { kind: 'incident', name: message.name, incident: message.incident },
      });
      void this.refresh(false);
    }
  }

  private onLeft(cid: number, reason: 'removed' | 'left_zone' | 'incident_closed'): void {
    const wasCurrent = this.current.current?.cid === cid;
    this.update({
      banner: { kind: 'left', reason },
      current: wasCurrent ? undefined : this.current.current,
      channels: this.current.channels.filter((channel) => channel.cid !== cid),
    });
    if (wasCurrent) void this.refresh(true);
  }

  private update(change: Partial<ChannelView>): void {
    this.current = { ...this.current, ...change };
    this.listeners.notify();
  }
}
