/** A frame's loudness 0..1: its RMS on a -60..0 dBFS scale (a meter people read like a VU meter). */
export function micLevel(pcm: Int16Array): number {
  let sum = 0;
  for (const s of pcm) sum += s * s;
  const rms = Math.sqrt(sum / Math.max(1, pcm.length)) / 32768;
  if (rms <= 0) return 0;
  const db = 20 * Math.log10(rms);
  return Math.round(Math.min(1, Math.max(0, (db + 60) / 60)) * 100) / 100;
}
