/** The agent's one audio format: 48 kHz mono signed 16-bit little-endian, 20 ms frames (Opus frame size). */
export const SAMPLE_RATE = 48_000;
export const FRAME_MS = 20;
export const FRAME_SAMPLES = (SAMPLE_RATE * FRAME_MS) / 1000;
export const FRAME_BYTES = FRAME_SAMPLES * 2;
