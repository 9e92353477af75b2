// What the browser talk benches share (bench/talkBrowser.ts: the console's seat; bench/fieldTalk.ts:
// the field app): the speech the fake microphone plays, percentiles, and the mouth-to-ear estimate.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { percentile } from './startServer.js';

/** Presses a run makes (BENCH_PRESSES) and how long each holds the floor. */
export const PRESSES = Number(process.env.BENCH_PRESSES ?? 20);
export const HOLD_MS = 600;

/** The playback jitter buffer's prebuffer (packages/browser-audio JitterRing: 40 ms). */
export const JITTER_PREBUFFER_MS = 40;

/** Opus's algorithmic delay (the 312-sample pre-skip at 48 kHz): the encoder's look-ahead. */
export const OPUS_LOOKAHEAD_MS = 6.5;

/** In the page: WebCodecs Opus encode and decode time per 20 ms packet with the browser audio's settings, and the input buffer. */
export const CODEC_TIMES = `(async () => {
  const encodeMs = [], decodeMs = [], packets = [], started = new Map(), decodeStarted = new Map();
  const encoder = new AudioEncoder({
    output: (chunk) => {
      encodeMs.push(performance.now() - started.get(chunk.timestamp));
      const packet = new Uint8Array(chunk.byteLength);
      chunk.copyTo(packet);
      packets.push(packet);
    },
    error: () => undefined,
  });
  encoder.configure({ codec: 'opus', sampleRate: 48000, numberOfChannels: 1, bitrate: 24000, opus: { frameDuration: 20000 } });
  for (let i = 0; i < 200; i += 1) {
    const samples = new Float32Array(960).map((_, n) => 0.3 * Math.sin(((i * 960 + n) / 48000) * 2 * Math.PI * 440));
    started.set(i * 20000, performance.now());
    encoder.encode(new AudioData({ format: 'f32', sampleRate: 48000, numberOfFrames: 960, numberOfChannels: 1, timestamp: i * 20000, data: samples }));
    await new Promise((r) => setTimeout(r, 2));
  }
  await encoder.flush();
  const decoder = new AudioDecoder({
    output: (data) => { decodeMs.push(performance.now() - decodeStarted.get(data.timestamp)); data.close(); },
    error: () => undefined,
  });
  decoder.configure({ codec: 'opus', sampleRate: 48000, numberOfChannels: 1 });
  for (const [i, packet] of packets.entries()) {
    decodeStarted.set(i * 20000, performance.now());
    decoder.decode(new EncodedAudioChunk({ type: 'key', timestamp: i * 20000, data: packet }));
    await new Promise((r) => setTimeout(r, 2));
  }
  await decoder.flush();
  const context = new AudioContext({ sampleRate: 48000, latencyHint: 'interactive' });
  const inputBuffer = context.baseLatency * 1000;
  await context.close();
  return { encodeMs, decodeMs, inputBuffer };
})()`;

export interface CodecTimes {
  encodeMs: number[];
  decodeMs: number[];
  /** AudioContext.baseLatency, ms. */
  inputBuffer: number;
}

export interface TimeStats {
  p50: number;
  p95: number;
  max: number;
}

export function timeStats(values: number[]): TimeStats {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? Number.NaN };
}

export const msText = (value: number) => `${value.toFixed(1)} ms`;

/** An espeak-ng recording of `phrase` as 48 kHz mono 16-bit WAV in `dir` (what Chromium's fake microphone plays). */
export function speechWavIn(dir: string, phrase: string): string {
  const wav = path.join(dir, 'speech.wav');
  execFileSync('espeak-ng', ['-w', path.join(dir, 'raw.wav'), phrase]);
  execFileSync('sox', [path.join(dir, 'raw.wav'), '-r', '48000', '-c', '1', '-b', '16', wav]);
  return wav;
}

/**
 * Mouth to ear at a percentile: the 20 ms capture frame + the input buffer + Opus's look-ahead +
 * encode + relay + the jitter buffer's prebuffer + decode.
 */
export function mouthToEar(codec: CodecTimes, relay: TimeStats, pick: 'p50' | 'p95'): number {
  const encode = timeStats(codec.encodeMs)[pick];
  const decode = timeStats(codec.decodeMs)[pick];
  return 20 + codec.inputBuffer + OPUS_LOOKAHEAD_MS + encode + relay[pick] + JITTER_PREBUFFER_MS + decode;
}

/** The line of the codec figures and the line of the fixed parts of the estimate. */
export function codecLines(codec: CodecTimes): string[] {
  const encode = timeStats(codec.encodeMs);
  const decode = timeStats(codec.decodeMs);
  return [
    `Opus encode (WebCodecs): p50 ${msText(encode.p50)}, p95 ${msText(encode.p95)}; decode: p50 ${msText(decode.p50)}, p95 ${msText(decode.p95)}`,
    `capture frame 20 ms + input buffer ${msText(codec.inputBuffer)} + Opus look-ahead ${OPUS_LOOKAHEAD_MS} ms + jitter buffer ${JITTER_PREBUFFER_MS} ms`,
  ];
}

/** What a talk bench calls its figures: the press figure, its first press, the relay and the two ends. */
export interface FigureNames {
  press: string;
  first: string;
  relay: string;
  ends: string;
}

/**
 * The lines a talk bench prints: the setting, the press figure (warm presses apart from the first,
 * which opens the microphone), the relay between the two ends, the codec figures and the
 * mouth-to-ear estimate from end to end.
 */
export function talkLines(
  browserVersion: string,
  names: FigureNames,
  presses: number[],
  relays: number[],
  codec: CodecTimes,
): string[] {
  const warm = timeStats(presses.slice(1));
  const relay = timeStats(relays);
  const load = os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
  return [
    `Chromium ${browserVersion}, ${PRESSES} presses of ${HOLD_MS} ms, load average ${load}`,
    `${names.press}: ${names.first} ${msText(presses[0]!)}; warm p50 ${msText(warm.p50)}, p95 ${msText(warm.p95)}, max ${msText(warm.max)} (goal <= 100 ms)`,
    `relay ${names.relay}: p50 ${msText(relay.p50)}, p95 ${msText(relay.p95)} over ${relays.length} frames`,
    ...codecLines(codec),
    `mouth-to-ear estimate ${names.ends}: p50 ${msText(mouthToEar(codec, relay, 'p50'))}, p95 ${msText(mouthToEar(codec, relay, 'p95'))} (goal <= 150 ms)`,
  ];
}
