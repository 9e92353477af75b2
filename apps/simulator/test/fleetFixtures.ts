import { SimDevice } from '../src/device.js';
import { seededRandom } from '../src/movement.js';
import type { SimulatorOptions } from '../src/options.js';
import { FleetStats } from '../src/stats.js';
import { SimTerminal, type TerminalSetup } from '../src/terminal.js';
import {
  FAST_TERMINALS,
  TERMINAL_PASSWORD,
  createTerminalUser,
  startTerminalApp,
  type TerminalTestApp,
} from '../../server/test/terminals/terminalTestApp.js';
import { useTestApp } from '../../server/test/useTestApp.js';

/** Where the simulated workers of these tests walk. */
export const CENTRE = { lat: 22.54, lon: 114.05 };

/** The server of a test file or `describe` block: /terminal with the terminal suite's short timings. */
export function useSimServer(): TerminalTestApp {
  return useTestApp(() => startTerminalApp(FAST_TERMINALS));
}

/**
 * A quiet fleet of three on `t`, signed in as the demo admin, reporting every 0.2 s around CENTRE:
 * no talk, SOS or recording unless `more` says so.
 */
export function fleetOptions(
  t: TerminalTestApp,
  more: Partial<SimulatorOptions> & Pick<SimulatorOptions, 'phoneStart'>,
): SimulatorOptions {
  return {
    url: t.origin,
    enterprise: 'DEMO',
    account: 'admin',
    password: t.demo.password,
    terminalPassword: 'Sim#2026',
    terminals: 3,
    interval: 0.2,
    osmand: false,
    centre: CENTRE,
    radiusKm: 1,
    duration: 0,
    sosRate: 0,
    quiet: true,
    talkEvery: 0,
    talkGroup: 10,
    record: false,
    ...more,
  };
}

/**
 * One simulated terminal of a new user of the demo enterprise, not started: a device near CENTRE
 * reporting every 0.2 s unless `setup` says otherwise.
 */
export async function simTerminal(t: TerminalTestApp, setup: Partial<TerminalSetup> = {}) {
  const { phone, U_ID } = await createTerminalUser(t, { E_ID: t.demo.E_ID });
  const stats = new FleetStats();
  const terminal = new SimTerminal({
    url: t.origin,
    phone,
    password: TERMINAL_PASSWORD,
    device: new SimDevice(CENTRE, 0.2, seededRandom(5), 0),
    stats,
    interval: 0.2,
    log: () => undefined,
    ...setup,
  });
  return { phone, U_ID, stats, terminal };
}
