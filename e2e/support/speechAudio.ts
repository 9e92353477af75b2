import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { OggOpusWriter } from '@intercom/media';
import { decodeAudioDown } from '@intercom/terminal-client';

/** An espeak-ng recording of `phrase` as 48 kHz mono 16-bit WAV (what Chromium's fake mic and the agent read). */
export function speechWav(dir: string, phrase: string, name = 'speech'): string {
  const raw = path.join(dir, `${name}-raw.wav`);
  const wav = path.join(dir, `${name}.wav`);
  execFileSync('espeak-ng', ['-s', '150', '-w', raw, phrase]);
  execFileSync('sox', [raw, '-r', '48000', '-c', '1', '-b', '16', wav]);
  return wav;
}

/** A WAV's length (s) and RMS amplitude by sox (which writes its statistics to stderr). */
export function wavStats(wav: string): { seconds: number; rms: number } {
  const soxStat = spawnSync('sox', [wav, '-n', 'stat'], { encoding: 'utf8' }).stderr;
  const seconds = Number(/Length \(seconds\):\s+([\d.]+)/.exec(soxStat)?.[1]);
  const rms = Number(/RMS\s+amplitude:\s+([\d.]+)/.exec(soxStat)?.[1]);
  return { seconds, rms };
}

/**
 * The decoded length (s) and RMS amplitude of the Opus packets of downstream audio frames (11-byte
 * header), read by opus-tools and sox (decoders independent of ours); `info` is opusinfo's report.
 */
export function decodeFrames(
  frames: readonly Buffer[],
  dir: string,
  name: string,
): { seconds: number; rms: number; info: string } {
  const writer = new OggOpusWriter();
  const packets = frames.map((frame) => {
    const heard = decodeAudioDown(frame);
    if (!heard) throw new Error(`not an audio frame: ${frame.subarray(0, 12).toString('hex')}`);
    return heard.opus;
  });
  const parts = [writer.header(), ...packets.map((packet) => writer.write(packet)), writer.end()];
  const opus = path.join(dir, `${name}.opus`);
  fs.writeFileSync(opus, Buffer.concat(parts));
  const info = execFileSync('opusinfo', [opus], { encoding: 'utf8' });
  const wav = path.join(dir, `${name}.wav`);
  execFileSync('opusdec', ['--quiet', opus, wav]);
  return { ...wavStats(wav), info };
}
