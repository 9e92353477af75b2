import type { AuthCode, TalkAgentEvent, TalkSeat } from '@intercom/contract';
import type { TalkChannels } from './TalkChannels';
import type { TalkLink } from './TalkLink';
import type { TalkStore } from './TalkStore';
import { TalkError, type SeatLogin, type TalkState, type TalkStatus } from './talkTypes';

export interface TalkAccount {
  /** The platform's origin. */
  proxy: string;
  /** E_ID. */
  partyId: number;
  /** The console account's name. */
  name: string;
  /** `D<A_ID>`. */
  dispatchNo: string;
}

type LoggedOut = Extract<TalkAgentEvent, { event: 'loggedOut' }>['reason'];
type ServerState = Extract<TalkAgentEvent, { event: 'server' }>['state'];

/**
 * The seat's login: the account it logs in as (a fresh AuthCode each time), whether it is wanted
 * (a seat lost by accident logs in again and rejoins its channels; one ended on purpose does not),
 * and what goes when the seat goes.
 */
export class SeatSession {
  /** Logged in on purpose: a transport that comes back logs in again with a fresh AuthCode. */
  private wantSeat = false;
  /** The SPEC.md 3 login payload's Proxy, PartyID and Uid: the signed-in account. */
  private account: TalkAccount | null = null;
  /** The agent said the platform dropped the seat (`loggedOut server_lost`) and it is not back yet. */
  private serverLost = false;

  constructor(
    private readonly store: TalkStore,
    private readonly link: TalkLink,
    private readonly channels: TalkChannels,
    /** `POST /api/Talk/AuthCode`. */
    private readonly fetchAuthCode: () => Promise<AuthCode>,
  ) {}

  setAccount(account: TalkAccount | null): void {
    this.account = account;
  }

  getAccount(): TalkAccount | null {
    return this.account;
  }

  /** Whether a transport that connects logs the seat in (the user asked for it, or asked it away). */
  want(wanted: boolean): void {
    this.wantSeat = wanted;
  }

  /** The transport is connected (again): the seat logs in if it is wanted. */
  connected(): void {
    if (this.wantSeat) void this.login().catch(() => undefined);
  }

  /**
   * The seat is gone, whichever way it went. Its floors, calls, microphone and video list go with
   * it (the server forgets a lost seat's videos; the next login lists them again). A seat lost by
   * accident keeps its current and monitored channels to join again; one ended on purpose
   * (`forget`) leaves them. `patch` changes more in the same update.
   */
  dropSeat(forget: boolean, patch: Partial<TalkState> = {}): void {
    this.store.set({
      seat: null,
      floors: new Map(),
      calls: new Map(),
      mic: 'off',
      micLevel: 0,
      videos: [],
      ...(forget ? { current: null, monitored: [] } : {}),
      ...patch,
    });
  }

  loggedOut(reason: LoggedOut): void {
    // The platform was lost (docs/talk-agent-protocol.md): the seat comes back with a new Login
    // once the agent says `server connected`, with the channels it had.
    if (reason === 'server_lost') {
      this.serverLost = true;
      this.dropSeat(false);
      return;
    }
    this.wantSeat = false;
    this.dropSeat(true);
    if (reason === 'replaced') this.store.status({ key: 'account_shortage', level: 'warning' });
  }

  server(state: ServerState): void {
    if (state === 'disconnected') this.store.status({ key: 'not_connected', level: 'warning' });
    else if (this.serverLost) {
      // Also sent while a Login is under way: only a seat the platform dropped logs in again.
      this.serverLost = false;
      if (this.wantSeat && !this.store.getState().seat) void this.login().catch(() => undefined);
    }
  }

  /** The intercom-account login: a one-time AuthCode from the server, handed to the transport. */
  async login(): Promise<TalkSeat> {
    this.wantSeat = true;
    const account = this.account;
    let code: AuthCode;
    try {
      if (!account) throw new TalkError('no_chat_account');
      code = await this.fetchAuthCode();
    } catch (error) {
      const status: TalkStatus =
        error instanceof TalkError
          ? { key: 'no_chat_account', level: 'error' }
          : { key: 'chat_account_failed', level: 'error' };
      this.store.status(status);
      throw error;
    }
    const login: SeatLogin = {
      proxy: account.proxy,
      partyId: account.partyId,
      account: account.name,
      authCode: code.authCode,
      dispatchNo: code.dispatchNo,
    };
    const seat = await this.link.run((transport) => transport.login(login), {
      key: 'login_success',
      level: 'success',
    });
    this.store.set({ seat, authCode: code.authCode });
    this.channels.rejoin();
    return seat;
  }

  async logout(): Promise<void> {
    this.wantSeat = false;
    await this.link.run((transport) => transport.logout()).catch(() => undefined);
    this.dropSeat(true);
  }
}
