/** One ring: 1 s of the two-tone ring, 2 s of silence (as a phone's). */
const RING_ON_S = 1;
const RING_PERIOD_S = 3;
/** A call rings this long at most; the dispatcher hangs up or the worker answers before. */
const RING_MAX_S = 60;
const VIBRATE_PATTERN = [600, 400, 600, 1400];

/**
 * Rings for an incoming call: a two-tone sound scheduled on the audio clock (no JavaScript timer) and
 * vibration where the phone has it. Returns its stop. A browser that blocks sound until a touch
 * still vibrates; the screen shows the call either way.
 */
export function startRingTone(): () => void {
  const vibrate = typeof navigator !== 'undefined' && 'vibrate' in navigator;
  if (vibrate) navigator.vibrate(Array.from({ length: RING_MAX_S / 4 }, () => VIBRATE_PATTERN).flat());
  let context: AudioContext | null = null;
  try {
    context = new AudioContext();
    const gain = context.createGain();
    gain.gain.value = 0;
    gain.connect(context.destination);
    for (const hz of [440, 480]) {
      const tone = context.createOscillator();
      tone.frequency.value = hz;
      tone.connect(gain);
      tone.start();
      tone.stop(context.currentTime + RING_MAX_S);
    }
    for (let at = 0; at < RING_MAX_S; at += RING_PERIOD_S) {
      gain.gain.setValueAtTime(0.15, context.currentTime + at);
      gain.gain.setValueAtTime(0, context.currentTime + at + RING_ON_S);
    }
    void context.resume().catch(() => undefined);
  } catch {
    // No Web Audio here: the vibration and the screen still tell.
  }
  return () => {
    if (vibrate) navigator.vibrate(0);
    void context?.close().catch(() => undefined);
  };
}
