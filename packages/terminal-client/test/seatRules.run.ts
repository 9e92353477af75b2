import type { TalkAgentEvent } from '@intercom/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SeatPeer } from './seatRules.peer.js';
import { SEAT_RULES, type SeatState, type SeatStep } from './seatRules.table.js';

/** A step a console commands (the others are the server's). */
export type SeatCommand = Exclude<SeatStep, { 0: 'push' | 'close' }>;

/** The commands that DispatcherSeat and the console's transports name alike. */
export interface SeatCommands {
  logout(): Promise<unknown>;
  groupCall(cid: number): Promise<unknown>;
  privateCall(uid: number): Promise<unknown>;
  endCall(cid: number): Promise<unknown>;
  answerCall(cid: number): unknown;
  applyMic(cid: number): Promise<unknown>;
  freeMic(cid: number): Promise<unknown>;
  monitor(cids: readonly number[]): Promise<unknown>;
}

/** Runs a step other than login as the method of the same name. */
export function commandStep(target: SeatCommands, step: Exclude<SeatCommand, { 0: 'login' }>): Promise<unknown> {
  if (step[0] === 'logout') return target.logout();
  if (step[0] === 'monitor') return target.monitor(step[1]);
  // answerCall answers at once (it throws rather than rejects).
  if (step[0] === 'answerCall') return Promise.resolve().then(() => target.answerCall(step[1]));
  return target[step[0]](step[1]);
}

/** One transport carrying a seat, as the table drives it. */
export interface SeatDriver {
  /** Runs a command; rejects with an error whose `code` is the failure's. */
  command(step: SeatCommand): Promise<unknown>;
  state(): SeatState | Promise<SeatState>;
  /** Every event the console got, in order. */
  readonly events: TalkAgentEvent[];
  close(): Promise<void>;
}

/** Registers one test per row of SEAT_RULES for a transport; `open` builds it against the peer. */
export function runSeatRules(transport: string, open: (peer: SeatPeer) => Promise<SeatDriver>): void {
  describe(`${transport} keeps the dispatcher seat's rules (seatRules.table.ts)`, () => {
    let peer: SeatPeer | undefined;
    let driver: SeatDriver | undefined;
    afterEach(async () => {
      await driver?.close();
      await peer?.stop();
      driver = peer = undefined;
    });

    it.each(SEAT_RULES.map((row) => [row.rule, row] as const))('%s', async (_rule, row) => {
      const server = (peer = await SeatPeer.start());
      const seat = (driver = await open(server));
      const perform = async (step: SeatStep): Promise<void> => {
        if (step[0] === 'push') return server.push(step[1]);
        if (step[0] === 'close') return server.close(step[1]);
        await seat.command(step);
      };
      for (const step of row.given) {
        const [frames, told] = [server.frames.length, seat.events.length];
        await perform(step);
        // A push is told (every push a row gives has an event) before the next step.
        if (step[0] === 'push') await vi.waitFor(() => expect(seat.events.length).toBeGreaterThan(told));
        // What a step set going has arrived before `when` starts.
        if (step[0] === 'applyMic') await vi.waitFor(() => expect(server.frames.length).toBe(frames + 2));
        if (step[0] === 'close') await vi.waitFor(async () => expect((await seat.state()).loggedIn).toBe(false));
      }
      const [sent, events, frames] = [server.messages().length, seat.events.length, server.frames.length];

      let error: unknown;
      await perform(row.when).catch((failure: unknown) => (error = failure));
      if (row.error) expect(error).toMatchObject({ code: row.error });
      else expect(error).toBeUndefined();
      const told = () => seat.events.slice(events).filter((e) => e.event !== 'micLevel' && e.event !== 'server');
      await vi.waitFor(() => expect(told()).toEqual(row.events ?? []));
      const heard = () => server.frames.slice(frames).map(({ cid, seq }) => ({ cid, seq }));
      await vi.waitFor(() => expect(heard()).toEqual(row.frames ?? []));
      await vi.waitFor(() => expect(server.messages().slice(sent)).toEqual(row.sent));
      expect(await seat.state()).toMatchObject(row.state);
    });
  });
}
