import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FRAME_SAMPLES } from '../src/audio/pcmFormat.js';
import { ProcessMicrophone, ProcessSpeaker, findAudioTool } from '../src/audio/processAudio.js';
import { sleep, tempDir } from './agentFixtures.js';

// The sox/ffmpeg back-ends through real child processes. This machine has neither tool, so a stand-in
// `sox` on a private PATH plays the part: it records its arguments, writes raw PCM like `sox -d ... -`
// (capture) or stores what it reads (playback).
const dir = tempDir();
const calls = path.join(dir, 'calls.txt');
const played = path.join(dir, 'played.raw');
fs.writeFileSync(
  path.join(dir, 'sox'),
  `#!/bin/sh
echo "$@" >> ${calls}
case "$*" in
  *" -d "*" -"|*" -d "*"-") head -c 19200 /dev/zero | tr '\\0' '\\001' ;;
  *) cat >> ${played} ;;
esac
`,
  { mode: 0o755 },
);
const env = { PATH: dir };
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('sox / ffmpeg back-ends', () => {
  it('finds sox on the PATH first, and none where there is neither', () => {
    const tool = findAudioTool(env);
    expect(tool).toMatchObject({ name: 'sox', bin: path.join(dir, 'sox') });
    expect(tool?.capture).toEqual(['-q', '-d', '-t', 'raw', '-r', '48000', '-e', 'signed', '-b', '16', '-c', '1', '-']);
    expect(findAudioTool({ PATH: path.join(dir, 'nothing') })).toBeUndefined();
  });

  it('the microphone cuts the child’s raw PCM into 20 ms frames; the speaker pipes frames to it', async () => {
    const tool = findAudioTool(env)!;
    const microphone = new ProcessMicrophone(tool);
    const frames: Int16Array[] = [];
    microphone.start((pcm) => frames.push(pcm));
    for (let i = 0; i < 200 && frames.length < 10; i += 1) await sleep(20);
    microphone.stop();
    // 19,200 bytes = 9,600 samples = ten frames of 960, each sample 0x0101.
    expect(frames).toHaveLength(10);
    expect(frames.every((f) => f.length === FRAME_SAMPLES && f.every((s) => s === 0x0101))).toBe(true);

    const speaker = new ProcessSpeaker(tool);
    speaker.write(new Int16Array(FRAME_SAMPLES).fill(7));
    speaker.write(new Int16Array(FRAME_SAMPLES).fill(7));
    speaker.close();
    for (let i = 0; i < 200 && (!fs.existsSync(played) || fs.statSync(played).size < 3840); i += 1) await sleep(20);
    expect(fs.statSync(played).size).toBe(2 * FRAME_SAMPLES * 2);
    expect(fs.readFileSync(calls, 'utf8')).toContain('-t raw -r 48000 -e signed -b 16 -c 1 - -d');
  });
});
