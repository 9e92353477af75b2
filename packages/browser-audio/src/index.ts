export { BrowserAudio } from './BrowserAudio';
export { browserTalkProblem, type BrowserTalkProblem } from './browserTalkProblem';
export { FRAME_SAMPLES, FRAME_US, OPUS_CONFIG, SAMPLE_RATE } from './opusConfig';
