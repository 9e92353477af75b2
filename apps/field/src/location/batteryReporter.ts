import type { FieldSession } from '../session/fieldSession';

/** The Battery Status API where the browser has it (Chromium); others report nothing. */
interface BatteryManager extends EventTarget {
  level: number;
  charging: boolean;
}
type BatteryNavigator = Navigator & { getBattery?: () => Promise<BatteryManager> };

/**
 * Sends `status` with the battery level and charging state after each login and when either
 * changes: event-driven, no timer.
 */
export function startBatteryReporter(session: FieldSession, nav: BatteryNavigator = navigator): () => void {
  let battery: BatteryManager | undefined;
  let stopped = false;
  const send = () => {
    const socket = session.socket;
    if (!battery || !socket?.isOpen || session.state.kind !== 'signedIn' || !session.state.online) return;
    socket.send({ type: 'status', battery: Math.round(battery.level * 100), charging: battery.charging });
  };
  const offReady = session.onReady(send);
  void nav
    .getBattery?.()
    .then((found) => {
      if (stopped) return;
      battery = found;
      found.addEventListener('levelchange', send);
      found.addEventListener('chargingchange', send);
      send();
    })
    .catch(() => undefined);
  return () => {
    stopped = true;
    offReady();
    battery?.removeEventListener('levelchange', send);
    battery?.removeEventListener('chargingchange', send);
  };
}
