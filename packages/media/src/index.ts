export { OggError, type OggErrorCode } from './OggError.js';
export { OggOpusWriter, type OggOpusWriterOptions } from './OggOpusWriter.js';
export { readOggOpus, type OggOpusFile } from './readOggOpus.js';
export { opusPacketSamples } from './opusPacketSamples.js';
export { speechFixtures, speechPackets, type SpeechFixture } from './speechPackets.js';
