import { FRAME_SAMPLES, FRAME_US, OPUS_CONFIG, SAMPLE_RATE } from './opusConfig';
import workletUrl from './talkWorklet.ts?worker&url';

/**
 * The longest a released talk waits for the frames captured before the release. An encoder further
 * behind than that (a starved machine) drops the rest: stale speech is worse than a cut word.
 */
const DRAIN_MS = 1000;
/** The meter moves 10 times a second (as the talk agent's `micLevel`), not on every 20 ms frame. */
const LEVEL_EVERY_FRAMES = 5;
/** Heard streams kept decoding; one decoder per (channel, speaker) because Opus keeps state. */
const MAX_STREAMS = 16;

/** Why browser talk cannot run here (i18n keys under talk.status), or null when it can. */
export async function browserTalkProblem(): Promise<'insecure_context' | 'no_webcodecs' | null> {
  if (!window.isSecureContext || !navigator.mediaDevices?.getUserMedia) return 'insecure_context';
  if (typeof AudioEncoder === 'undefined' || typeof AudioDecoder === 'undefined') return 'no_webcodecs';
  const encode = await AudioEncoder.isConfigSupported(OPUS_CONFIG).catch(() => ({ supported: false }));
  return encode.supported ? null : 'no_webcodecs';
}

/**
 * The browser's talk audio (a console seat's, a field worker's): microphone -> AudioWorklet (20 ms
 * frames) -> WebCodecs Opus -> packets; packets -> WebCodecs Opus decode -> the playback worklet's
 * jitter buffer, one per (channel, speaker) stream.
 */
export class BrowserAudio {
  private mic: { stream: MediaStream; node: AudioWorkletNode; encoder: AudioEncoder } | null = null;
  private onPacket: ((opus: Uint8Array) => void) | null = null;
  private onLevel: ((level: number) => void) | null = null;
  private readonly decoders = new Map<string, AudioDecoder>();
  private timestamp = 0;
  private counters = { sent: 0, decoded: 0 };
  /** The stop that waits for the worklet's last frames, by its number. */
  private drain = { stop: 0, done: (): void => undefined };

  private constructor(
    private readonly context: AudioContext,
    private readonly playback: AudioWorkletNode,
  ) {}

  static async create(): Promise<BrowserAudio> {
    const context = new AudioContext({ sampleRate: SAMPLE_RATE, latencyHint: 'interactive' });
    await context.audioWorklet.addModule(workletUrl);
    const playback = new AudioWorkletNode(context, 'talk-playback', { numberOfInputs: 0, outputChannelCount: [1] });
    playback.connect(context.destination);
    // Autoplay policy: the first push-to-talk or login click resumes it.
    void context.resume().catch(() => undefined);
    return new BrowserAudio(context, playback);
  }

  /** Lets the tab play sound (autoplay policy): call it from a click, a touch or a key press. */
  resume(): void {
    void this.context.resume().catch(() => undefined);
  }

  stats(): { sent: number; decoded: number } {
    return { ...this.counters };
  }

  /** Asks for the microphone once (the permission prompt) and keeps it open for the next talks. */
  async openMic(): Promise<void> {
    this.resume();
    if (this.mic) return;
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
    });
    const source = this.context.createMediaStreamSource(stream);
    const node = new AudioWorkletNode(this.context, 'talk-capture', { numberOfOutputs: 0 });
    source.connect(node);
    const encoder = new AudioEncoder({
      output: (chunk) => {
        const packet = new Uint8Array(chunk.byteLength);
        chunk.copyTo(packet);
        if (!this.onPacket) return;
        this.counters.sent += 1;
        this.onPacket(packet);
      },
      error: () => void this.stopSending(),
    });
    encoder.configure(OPUS_CONFIG);
    node.port.onmessage = (message: MessageEvent<{ samples: Float32Array; rms: number } | { drained: number }>) => {
      if ('drained' in message.data) {
        if (message.data.drained === this.drain.stop) this.drain.done();
        return;
      }
      if (!this.onPacket || encoder.state !== 'configured') return;
      const data = new AudioData({
        format: 'f32',
        sampleRate: SAMPLE_RATE,
        numberOfFrames: FRAME_SAMPLES,
        numberOfChannels: 1,
        timestamp: this.timestamp,
        data: message.data.samples as Float32Array<ArrayBuffer>,
      });
      this.timestamp += FRAME_US;
      encoder.encode(data);
      data.close();
      if (this.timestamp % (FRAME_US * LEVEL_EVERY_FRAMES) !== FRAME_US) return;
      // A meter in decibels, as people hear loudness: -50 dBFS and below is empty, 0 dBFS full.
      const db = 20 * Math.log10(Math.max(message.data.rms, 1e-5));
      this.onLevel?.(Math.min(1, Math.max(0, (db + 50) / 50)));
    };
    this.mic = { stream, node, encoder };
  }

  startSending(onPacket: (opus: Uint8Array) => void, onLevel: (level: number) => void): void {
    this.onPacket = onPacket;
    this.onLevel = onLevel;
    this.mic?.node.port.postMessage({ sending: true });
  }

  /**
   * Stops the capture. The frames captured before it (still in the worklet's queue or the encoder on
   * a busy machine) are encoded and handed over first: a released talk keeps its last word.
   */
  async stopSending(): Promise<void> {
    const onPacket = this.onPacket;
    const mic = this.mic;
    if (onPacket && mic) {
      const stop = this.drain.stop + 1;
      const drained = new Promise<void>((resolve) => (this.drain = { stop, done: resolve }));
      mic.node.port.postMessage({ sending: false, stop });
      const flushed = drained.then(() => (mic.encoder.state === 'configured' ? mic.encoder.flush() : undefined));
      await Promise.race([flushed.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, DRAIN_MS))]);
    }
    // A new talk that started meanwhile keeps its own sink.
    if (this.onPacket !== onPacket) return;
    if (mic && mic.encoder.state === 'configured' && mic.encoder.encodeQueueSize > 0) {
      mic.encoder.reset();
      mic.encoder.configure(OPUS_CONFIG);
    }
    this.onPacket = null;
    this.onLevel?.(0);
    this.onLevel = null;
    this.mic?.node.port.postMessage({ sending: false });
  }

  /** Decodes one heard packet into the jitter buffer of its (channel, speaker) stream. */
  play(cid: number, speaker: number, opus: Uint8Array): void {
    const stream = `${cid}:${speaker}`;
    let decoder = this.decoders.get(stream);
    if (!decoder || decoder.state === 'closed') {
      if (this.decoders.size >= MAX_STREAMS) this.dropOldestStream();
      decoder = new AudioDecoder({
        output: (data) => {
          const samples = new Float32Array(data.numberOfFrames);
          data.copyTo(samples, { planeIndex: 0, format: 'f32-planar' });
          data.close();
          this.counters.decoded += 1;
          this.playback.port.postMessage({ stream, samples }, [samples.buffer]);
        },
        error: () => this.decoders.delete(stream),
      });
      decoder.configure({ codec: 'opus', sampleRate: SAMPLE_RATE, numberOfChannels: 1 });
      this.decoders.set(stream, decoder);
    }
    decoder.decode(new EncodedAudioChunk({ type: 'key', timestamp: 0, data: opus }));
  }

  private dropOldestStream(): void {
    const [oldest] = this.decoders.keys();
    if (oldest === undefined) return;
    const decoder = this.decoders.get(oldest);
    this.decoders.delete(oldest);
    if (decoder?.state !== 'closed') decoder?.close();
  }

  close(): void {
    this.onPacket = null;
    this.onLevel?.(0);
    this.onLevel = null;
    this.drain.done();
    if (this.mic) {
      for (const track of this.mic.stream.getTracks()) track.stop();
      if (this.mic.encoder.state !== 'closed') this.mic.encoder.close();
      this.mic = null;
    }
    for (const decoder of this.decoders.values()) if (decoder.state !== 'closed') decoder.close();
    this.decoders.clear();
    void this.context.close().catch(() => undefined);
  }
}
