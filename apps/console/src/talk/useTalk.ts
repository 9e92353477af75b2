import { useSyncExternalStore } from 'react';
import { talk as talkClient } from './talk';
import type { TalkState } from './talkTypes';

/** The talk state, or a part of it (re-renders only when that part changes). */
export function useTalk(): TalkState;
export function useTalk<T>(select: (state: TalkState) => T): T;
export function useTalk<T>(select?: (state: TalkState) => T): T | TalkState {
  return useSyncExternalStore(talkClient.subscribe, () =>
    select ? select(talkClient.getState()) : talkClient.getState(),
  );
}
