import { OggOpusWriter, speechPackets } from '@intercom/media';

/** The fixture's 20 ms Opus packets through the package's OggOpusWriter: what a recording file holds. */
export function speechBurst(): { bytes: Buffer; durationMs: number } {
  const writer = new OggOpusWriter();
  const parts = [writer.header(), ...speechPackets('copy').map((packet) => writer.write(packet)), writer.end()];
  return { bytes: Buffer.concat(parts), durationMs: writer.durationMs };
}
