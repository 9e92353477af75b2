import type { TerminalSocket } from '@intercom/terminal-client';
import type { Fix } from '../location/fix';

/** `sos` or `manDown` with the newest fix (without one the server takes the user's latest). */
export async function sendAlarm(
  socket: TerminalSocket | undefined,
  type: 'sos' | 'manDown',
  fix: Fix | undefined,
): Promise<void> {
  if (!socket) throw new Error('not connected');
  await socket.request({ type, ...(fix ? { lat: fix.lat, lon: fix.lon } : {}) });
}
