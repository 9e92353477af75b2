import { useEffect } from 'react';
import { useSessionEnded } from '../api/sessionState';
import { liveHub } from './liveHub';

/**
 * Mounted with the signed-in screens: connects the hub once they show and disconnects when they
 * go (logout, another account) or when the server has said the session is over.
 */
export function LiveHubConnection() {
  const ended = useSessionEnded();
  useEffect(() => {
    if (ended) return;
    liveHub.start();
    return () => liveHub.stop();
  }, [ended]);
  return null;
}
