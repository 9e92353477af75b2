/** The talk audio format of DESIGN.md 7: mono 48 kHz Opus, one 20 ms packet per frame. */
export const SAMPLE_RATE = 48_000;
export const FRAME_SAMPLES = 960;
export const FRAME_US = 20_000;

export const OPUS_CONFIG: AudioEncoderConfig = {
  codec: 'opus',
  sampleRate: SAMPLE_RATE,
  numberOfChannels: 1,
  bitrate: 24_000,
  // 20 ms packets, one per frame (DESIGN.md 7).
  opus: { frameDuration: FRAME_US },
};
