const BEEP_EVERY_MS = 1000;
const VIBRATION = [400, 200, 400];

/** One short two-tone beep on `context`. */
function beep(context: AudioContext): void {
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  const start = context.currentTime;
  oscillator.type = 'square';
  oscillator.frequency.setValueAtTime(880, start);
  oscillator.frequency.setValueAtTime(660, start + 0.2);
  gain.gain.setValueAtTime(0.25, start);
  gain.gain.setValueAtTime(0, start + 0.4);
  oscillator.connect(gain).connect(context.destination);
  oscillator.start(start);
  oscillator.stop(start + 0.45);
}

/**
 * Sound and vibration that ask for the worker's attention (a man down countdown, a check-in due),
 * once a second until the returned function stops them. Either may be missing (no audio before a
 * tap on some browsers, no vibration on desktops); the prompt on screen is what counts.
 */
export function startAlert(): () => void {
  let context: AudioContext | undefined;
  try {
    context = new AudioContext();
  } catch {
    context = undefined;
  }
  const once = () => {
    if (context && context.state !== 'closed') {
      void context.resume().catch(() => undefined);
      beep(context);
    }
    if ('vibrate' in navigator) navigator.vibrate(VIBRATION);
  };
  once();
  const timer = setInterval(once, BEEP_EVERY_MS);
  return () => {
    clearInterval(timer);
    if ('vibrate' in navigator) navigator.vibrate(0);
    void context?.close().catch(() => undefined);
  };
}
