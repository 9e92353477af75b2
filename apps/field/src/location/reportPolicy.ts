import type { TerminalConfig } from '@intercom/contract';
import { distanceMetres, type Fix } from './fix';

export type ReportConfig = Pick<TerminalConfig, 'interval' | 'distance' | 'mode' | 'enabled'>;

/** Fixes come about a second apart; one a little early still counts as a whole interval later. */
const EARLY_MS = 250;

/**
 * Whether `fix` is to be reported, the last report being `last` (docs/terminal-protocol.md `config`):
 * mode `interval` every `interval` s; `distance` after `distance` m of movement and after `interval`
 * s of silence anyway; `both` every `interval` s but only after `distance` m. The first fix always.
 */
export function reportDue(config: ReportConfig, last: Fix | undefined, fix: Fix): boolean {
  if (!config.enabled) return false;
  if (!last) return true;
  const intervalDone = fix.time - last.time >= config.interval * 1000 - EARLY_MS;
  const moved = distanceMetres(last, fix) >= config.distance;
  switch (config.mode) {
    case 'interval':
      return intervalDone;
    case 'distance':
      return moved || intervalDone;
    case 'both':
      return moved && intervalDone;
  }
}
