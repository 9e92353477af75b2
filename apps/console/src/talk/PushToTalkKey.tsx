import { usePushToTalkKey } from './usePushToTalkKey';
import { useTalk } from './useTalk';

/** Space as push-to-talk on every signed-in screen, whether the talk panel is open or not. */
export function PushToTalkKey() {
  const ready = useTalk((state) => state.seat !== null && state.current !== null);
  usePushToTalkKey(ready);
  return null;
}
