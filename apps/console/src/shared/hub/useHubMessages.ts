import { useEffect, useRef } from 'react';
import { liveHub } from './liveHub';
import type { MessagesListener } from './LiveStore';

/**
 * Hands every burst of hub messages to `listener`, starting with a replay of the held state as
 * snapshot messages, so a late subscriber builds the same picture as an early one.
 */
export function useHubMessages(listener: MessagesListener): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => liveHub.store.subscribeMessages((messages) => latest.current(messages)), []);
}
