import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface OpusInfo {
  stdout: string;
  /** Playback length in ms, as opusinfo prints it ("Playback length: 0m:03.567s"). */
  playbackMs: number;
  /** Lines that say WARNING or ERROR. */
  problems: string[];
}

/** Runs Debian's `opusinfo` (opus-tools) on the bytes: an independent reader of Ogg Opus. */
export function opusinfo(bytes: Uint8Array): OpusInfo {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-opusinfo-'));
  try {
    const file = path.join(dir, 'stream.opus');
    fs.writeFileSync(file, bytes);
    const result = spawnSync('opusinfo', [file], { encoding: 'utf8' });
    if (result.error) throw result.error;
    const output = `${result.stdout}${result.stderr}`;
    const length = /Playback length:\s+(\d+)m:(\d+(?:\.\d+)?)s/.exec(output);
    return {
      stdout: output,
      playbackMs: length ? Number(length[1]) * 60_000 + Number(length[2]) * 1000 : NaN,
      problems: output.split('\n').filter((line) => /warning|error/i.test(line)),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
