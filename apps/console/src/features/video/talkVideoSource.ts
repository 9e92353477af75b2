import type { TalkSeat } from '@intercom/contract';
import { talk, type TalkState, type TalkVideoFrame } from '../../talk';
import type { EncodedVideo, VideoFrameSource } from './videoFrameSource';

/** What the video panel needs of the talk owner (`talk` from src/talk; tests give their own). */
export interface TalkVideoOwner {
  getState(): TalkState;
  subscribe(listener: () => void): () => void;
  onVideoFrame(listener: (frame: TalkVideoFrame) => void): () => void;
  applyVideo(uid: number): Promise<void>;
  freeVideo(uid: number): Promise<void>;
}

/**
 * The video panel's frames over the console's one talk connection: ApplyVideo/FreeVideo go to the
 * local agent, or to this browser's own dispatcher seat, whichever the talk owner runs; frames
 * come from `talk.onVideoFrame`. A stream lives as long as the seat it was applied on: when the
 * connection drops or a new login replaces the seat, the server has already dropped it, so every
 * stream ends (onLost) and watching again applies again.
 */
export class TalkVideoSource implements VideoFrameSource {
  /** Watched U_IDs and the seat each was applied on. */
  private readonly watching = new Map<number, TalkSeat>();
  private readonly lostListeners = new Set<() => void>();
  private stopFollowingSeat: (() => void) | null = null;

  constructor(private readonly owner: TalkVideoOwner = talk) {}

  async applyVideo(uid: number): Promise<void> {
    await this.owner.applyVideo(uid);
    // applyVideo refuses without a seat, so there is one now.
    const seat = this.owner.getState().seat;
    if (seat) this.watching.set(uid, seat);
  }

  async freeVideo(uid: number): Promise<void> {
    const seat = this.watching.get(uid);
    this.watching.delete(uid);
    // A stream of a seat that is gone is gone with it: nothing to tell.
    if (seat && seat === this.owner.getState().seat) await this.owner.freeVideo(uid).catch(() => undefined);
  }

  subscribe(uid: number, onFrame: (frame: EncodedVideo) => void): () => void {
    return this.owner.onVideoFrame((frame) => {
      if (frame.uid === uid) onFrame(frame);
    });
  }

  onLost(listener: () => void): () => void {
    this.lostListeners.add(listener);
    this.stopFollowingSeat ??= this.owner.subscribe(() => this.checkSeat());
    return () => {
      this.lostListeners.delete(listener);
      if (this.lostListeners.size > 0) return;
      this.stopFollowingSeat?.();
      this.stopFollowingSeat = null;
    };
  }

  close(): void {
    for (const uid of [...this.watching.keys()]) void this.freeVideo(uid);
  }

  private checkSeat(): void {
    const seat = this.owner.getState().seat;
    let lost = false;
    for (const [uid, appliedOn] of this.watching) {
      if (appliedOn === seat) continue;
      this.watching.delete(uid);
      lost = true;
    }
    if (lost) for (const listener of this.lostListeners) listener();
  }
}

/** The panel's source: one, like the talk connection it rides on. */
export const talkVideoSource = new TalkVideoSource();
