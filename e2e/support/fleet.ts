import { inject } from 'vitest';
import type { SimulatorOptions } from '../../apps/simulator/src/options.js';
import { SIM_ACCOUNT } from '../../apps/simulator/src/simAccount.js';
import { adminCredentials, COMPANY_CODE } from './accounts.js';

/** Where a file's simulated fleet stands and who it is; the rest is what every browser test's fleet shares. */
export type FleetPlace = Pick<SimulatorOptions, 'terminals' | 'centre' | 'radiusKm' | 'phoneStart'> &
  Partial<SimulatorOptions>;

/**
 * The simulator's options for a fleet against the test server: its own console account (set up
 * with admin's the first time), reports every second, no SOS, no talk, quiet, unless `place` says
 * otherwise.
 */
export function fleetOptions(place: FleetPlace): SimulatorOptions {
  return {
    url: inject('baseUrl').replace(/\/$/, ''),
    enterprise: COMPANY_CODE,
    account: 'admin',
    password: adminCredentials().password,
    simAccount: SIM_ACCOUNT,
    terminalPassword: 'Sim#2026',
    interval: 1,
    osmand: false,
    duration: 0,
    sosRate: 0,
    quiet: true,
    talkEvery: 0,
    talkGroup: 0,
    record: false,
    ...place,
  };
}
