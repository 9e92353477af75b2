import { expect } from 'vitest';
import { data, org, type Org } from './channelFixtures.js';
import {
  createTerminalUser,
  loggedIn,
  type ServerMessage,
  type TerminalTestApp,
  type TestTerminal,
} from './terminals/terminalTestApp.js';

/** Fixtures of the incident zone tests (issue 32): terminals that walk in and out of a zone. */

/** A latitude `metres` north of `lat`. */
export const north = (lat: number, metres: number) => lat + metres / 111_195;

export const CENTER: [number, number] = [30, 60];

export const zone = (fields: Record<string, unknown> = {}) => ({
  Name: `Fire ${Math.floor(Math.random() * 1e9)}`,
  Kind: 'circle',
  Center: CENTER,
  Radius: 200,
  ...fields,
});

export interface Walker {
  U_ID: number;
  phone: string;
  terminal: TestTerminal;
  /** Sends one fix `metres` north of the zone's centre (acknowledged), then waits for the membership to settle. */
  at(metres: number, accuracy?: number): Promise<void>;
}

let clock = Date.now() - 3_600_000;

/** The incident watcher's writes and every instance's regrouping are done. */
export async function settled(t: TerminalTestApp): Promise<void> {
  await t.terminals.service.incidents.settle();
  await t.app.talk.service.regroups.settle();
}

/** A logged-in terminal of a new user (connected to `on`, another instance on the same database). */
export async function walker(
  t: TerminalTestApp,
  o: { E_ID: number },
  name?: string,
  on: TerminalTestApp = t,
): Promise<Walker> {
  const { U_ID, phone } = await createTerminalUser(t, { E_ID: o.E_ID, ...(name ? { name } : {}) });
  const terminal = await loggedIn(on, phone);
  return {
    U_ID,
    phone,
    terminal,
    async at(metres, accuracy = 5) {
      clock += 1000;
      const reply = await terminal.request({
        type: 'position',
        lat: north(CENTER[0], metres),
        lon: CENTER[1],
        time: clock,
        accuracy,
      });
      expect(reply.type).toBe('ack');
      await settled(on);
    },
  };
}

export async function create(who: Org, body: Record<string, unknown>): Promise<{ IN_ID: number; CID: number }> {
  return data<{ IN_ID: number; CID: number }>(await who.api.postJson('/api/Incident/Create', body));
}

/** The messages of these types the terminal got, in order. */
export const pushes = (terminal: TestTerminal, ...types: string[]): ServerMessage[] =>
  terminal.received.filter((m) => types.includes(m.type));

export { org, type Org };
