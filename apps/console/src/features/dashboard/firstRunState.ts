import type { Statistics } from '@intercom/contract';
import { readPreference, writePreference } from '../../shared/storage/localPreference';

/** What this browser remembers of an account's first-run checklist. */
export interface FirstRunMarks {
  download?: boolean;
  map?: boolean;
  dismissed?: boolean;
}

export type FirstRunStep = 'departments' | 'users' | 'channel' | 'download' | 'map';
export const FIRST_RUN_STEPS: readonly FirstRunStep[] = ['departments', 'users', 'channel', 'download', 'map'];

/** One entry per account of one enterprise (two accounts on one PC keep theirs apart). */
export const firstRunKey = (eid: number, aid: number) => `firstRun.${eid}.${aid}`;

export function readFirstRun(eid: number, aid: number): FirstRunMarks {
  try {
    const parsed: unknown = JSON.parse(readPreference(firstRunKey(eid, aid)) ?? '{}');
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

export function writeFirstRun(eid: number, aid: number, marks: FirstRunMarks): void {
  writePreference(firstRunKey(eid, aid), JSON.stringify(marks));
}

/**
 * Which steps are done: departments, users and a channel from the enterprise's counts (the real
 * data), the talk service once it answered on this PC or its download was opened from here, the
 * live map once opened from here.
 */
export function firstRunDone(
  stats: Pick<Statistics, 'Organ' | 'User' | 'Channel'>,
  marks: FirstRunMarks,
  agentPresent: boolean,
): Record<FirstRunStep, boolean> {
  return {
    departments: stats.Organ > 0,
    users: stats.User > 0,
    channel: stats.Channel > 0,
    download: Boolean(marks.download) || agentPresent,
    map: Boolean(marks.map),
  };
}
