import type { TerminalConfig, TerminalLoginAck, TerminalServerMessage } from '@intercom/contract';
import { TerminalRequestError, TerminalSocket } from '@intercom/terminal-client';
import { forgetSavedSession, readSavedSession, writeSavedSession, type SavedSession } from './savedSession';
import { closedReasonKey, signInErrorKey } from './signInMessages';

export type SessionState =
  | { kind: 'signedOut'; messageKey?: string }
  | {
      kind: 'signedIn';
      uid: number;
      name: string;
      phone: string;
      online: boolean;
      config?: TerminalConfig;
      /** A lone worker's check-in the server said is due (`checkInDue`), until answered. */
      checkInDue?: number;
    };

type Listener = () => void;
type ReadyListener = (config: TerminalConfig) => void;
/** The pushes that move the worker between channels without asking. */
export type ChannelPush = Extract<TerminalServerMessage, { type: 'regrouped' | 'channelLeft' }>;
type ChannelPushListener = (message: ChannelPush) => void;

/** A password login can wait seconds for a busy server's scrypt (docs/terminal-protocol.md). */
const LOGIN_TIMEOUT_MS = 30_000;
const DEVICE = 'Intercom Field (web)';
/** Close codes after which the server does not want this session back: replaced, account changed. */
const ENDED_BY_SERVER = [4001, 4002];

/** The `/terminal` URL of the page's own server. */
export function terminalUrl(location: Location = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/terminal`;
}

/**
 * The field worker's session: signs in with phone and password, keeps the resume token on the
 * device, logs in again with it after every reconnect, and returns to sign-in (saying why) when the
 * server ends the session. `ready` fires after each login, when the features (re)start their work.
 */
export class FieldSession {
  private current: SessionState = { kind: 'signedOut' };
  private socketOf: TerminalSocket | undefined;
  private saved: SavedSession | undefined;
  private readonly listeners = new Set<Listener>();
  private readonly readyListeners = new Set<ReadyListener>();
  private readonly channelPushListeners = new Set<ChannelPushListener>();
  /** The last channel push that came while no screen listened (the radio screen still loading). */
  private heldChannelPush: ChannelPush | undefined;

  constructor(private readonly url: string = terminalUrl()) {}

  get state(): SessionState {
    return this.current;
  }

  /** The socket while signed in (it reconnects by itself); undefined when signed out. */
  get socket(): TerminalSocket | undefined {
    return this.socketOf;
  }

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  onReady(listener: ReadyListener): () => void {
    this.readyListeners.add(listener);
    return () => this.readyListeners.delete(listener);
  }

  /**
   * `regrouped` and `channelLeft`: a push that came before any listener (the first moment after
   * sign-in) is kept, the last one, and given to the first listener when it subscribes.
   */
  onChannelPush(listener: ChannelPushListener): () => void {
    this.channelPushListeners.add(listener);
    const held = this.heldChannelPush;
    this.heldChannelPush = undefined;
    if (held) listener(held);
    return () => this.channelPushListeners.delete(listener);
  }

  /** A channel push from the socket: to the listeners, or kept until one subscribes. */
  channelPushed(message: ChannelPush): void {
    if (this.channelPushListeners.size === 0) this.heldChannelPush = message;
    for (const listener of this.channelPushListeners) listener(message);
  }

  /**
   * Follows the device's network: offline (`navigator.onLine` false) the session counts as offline
   * at once, so fixes queue instead of going into a socket that may be dead without knowing it
   * yet; back online with the socket still up, the features start again (`ready`), and a socket
   * waiting to reconnect tries at once.
   */
  watchNetwork(target: Pick<Window, 'addEventListener'> = window): void {
    target.addEventListener('offline', () => {
      if (this.current.kind === 'signedIn') this.set({ ...this.current, online: false });
    });
    target.addEventListener('online', () => {
      const socket = this.socketOf;
      // A socket waiting out its back-off tries again now, not up to 10 s later.
      if (this.current.kind === 'signedIn' && socket && !socket.isOpen) socket.reconnectNow();
      if (this.current.kind !== 'signedIn' || !socket?.isOpen || !this.loggedIn) return;
      this.set({ ...this.current, online: true });
      if (this.current.config) this.ready(this.current.config);
    });
  }

  /** Reopens a kept session at once (offline too: fixes queue until the socket is back). */
  start(): void {
    this.watchNetwork();
    const saved = readSavedSession();
    if (!saved) return;
    this.saved = saved;
    this.set({ kind: 'signedIn', uid: saved.uid, name: saved.name, phone: saved.phone, online: false });
    this.socketOf = this.openSocket(true);
  }

  /** Signs in; rejects with the translation key of the reason when the server or network says no. */
  async signIn(phone: string, password: string): Promise<void> {
    this.socketOf?.close();
    const socket = this.openSocket(false);
    this.socketOf = socket;
    try {
      await socket.opened();
      const ack = (await socket.login({ phone, password, device: DEVICE })) as unknown as TerminalLoginAck;
      this.saved = { phone, token: ack.resume ?? '', uid: ack.user.U_ID, name: ack.user.UserName };
      writeSavedSession(this.saved);
      this.set({
        kind: 'signedIn',
        uid: ack.user.U_ID,
        name: ack.user.UserName,
        phone,
        online: true,
        config: ack.config,
      });
      this.resumeOnOpen = true;
      this.loggedIn = true;
      this.ready(ack.config);
    } catch (error) {
      if (this.socketOf === socket) this.socketOf = undefined;
      socket.close();
      throw new Error(signInErrorKey(error), { cause: error });
    }
  }

  /** The due check-in was answered. */
  checkedIn(): void {
    if (this.current.kind === 'signedIn') this.set({ ...this.current, checkInDue: undefined });
  }

  /** Sends `logout` (when connected), forgets the token and returns to sign-in. */
  async signOut(): Promise<void> {
    const socket = this.socketOf;
    if (socket?.isOpen) await socket.logout(5000).catch(() => undefined);
    this.end();
  }

  private resumeOnOpen = false;
  /** Whether the current socket's login went through (a socket that reopens is not, until it logs in again). */
  private loggedIn = false;

  private openSocket(resumeOnOpen: boolean): TerminalSocket {
    this.resumeOnOpen = resumeOnOpen;
    const socket = new TerminalSocket({
      connect: () => new WebSocket(this.url),
      requestTimeoutMs: LOGIN_TIMEOUT_MS,
      // At most 10 s between attempts: a worker back in coverage is heard again soon (a resume login is cheap).
      reconnect: { initialMs: 1000, maxMs: 10_000, finalCloseCodes: [1000, ...ENDED_BY_SERVER] },
    });
    socket.on('open', () => {
      if (this.resumeOnOpen && this.socketOf === socket) void this.resume(socket);
    });
    socket.on('close', (code, reason) => {
      if (this.socketOf === socket) this.loggedIn = false;
      if (this.socketOf !== socket || this.current.kind !== 'signedIn') return;
      if (ENDED_BY_SERVER.includes(code)) this.end(closedReasonKey(code, reason));
      else this.set({ ...this.current, online: false });
    });
    // Kept here, not in a screen: a push that comes before the screen is drawn is not lost.
    socket.on('push', (message) => {
      if (this.current.kind !== 'signedIn') return;
      if (message.type === 'config') this.set({ ...this.current, config: message.config });
      if (message.type === 'checkInDue') this.set({ ...this.current, checkInDue: message.dueAt });
      if (message.type === 'regrouped' || message.type === 'channelLeft') this.channelPushed(message);
    });
    return socket;
  }

  /** Logs in again with the kept token; a refusal (token gone, user frozen) returns to sign-in. */
  private async resume(socket: TerminalSocket): Promise<void> {
    const saved = this.saved;
    if (!saved) return;
    try {
      const ack = (await socket.login({
        phone: saved.phone,
        resume: saved.token,
        device: DEVICE,
      })) as unknown as TerminalLoginAck;
      if (this.socketOf !== socket || this.current.kind !== 'signedIn') return;
      this.loggedIn = true;
      this.set({ ...this.current, name: ack.user.UserName, online: navigator.onLine, config: ack.config });
      this.ready(ack.config);
    } catch (error) {
      if (error instanceof TerminalRequestError && error.reply) this.end(resumeRefusedKey(error.code));
      // Otherwise the network failed: the socket reconnects and this runs again.
    }
  }

  private ready(config: TerminalConfig): void {
    for (const listener of this.readyListeners) listener(config);
  }

  private end(messageKey?: string): void {
    const socket = this.socketOf;
    this.socketOf = undefined;
    this.saved = undefined;
    this.heldChannelPush = undefined;
    forgetSavedSession();
    socket?.close();
    this.set(messageKey ? { kind: 'signedOut', messageKey } : { kind: 'signedOut' });
  }

  private set(state: SessionState): void {
    this.current = state;
    for (const listener of this.listeners) listener();
  }
}

/** Why a kept session could not be reopened: the account's state, or an expired token. */
function resumeRefusedKey(code: string): string {
  return code === 'bad_credentials' || code === 'invalid'
    ? 'signIn.closed.expired'
    : signInErrorKey(new TerminalRequestError(code, code));
}
