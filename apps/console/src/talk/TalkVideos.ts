import type { TalkVideoSource } from '@intercom/contract';
import type { TalkLink } from './TalkLink';
import type { TalkStore } from './TalkStore';
import type { TalkVideoFrame } from './talkTypes';

/**
 * The seat's videos: the list of cameras online (it goes with the seat, and the next login lists
 * them again), applying for and freeing one, and its frames to their subscribers.
 */
export class TalkVideos {
  private readonly frameListeners = new Set<(frame: TalkVideoFrame) => void>();

  constructor(
    private readonly store: TalkStore,
    private readonly link: TalkLink,
  ) {}

  onFrame(listener: (frame: TalkVideoFrame) => void): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  /** A frame from whichever transport runs. */
  frame(frame: TalkVideoFrame): void {
    for (const listener of this.frameListeners) listener(frame);
  }

  online(video: TalkVideoSource): void {
    const videos = this.store.getState().videos;
    this.store.set({ videos: [...videos.filter((v) => v.uid !== video.uid), video] });
  }

  offline(uid: number): void {
    this.store.set({ videos: this.store.getState().videos.filter((v) => v.uid !== uid) });
  }

  async apply(uid: number): Promise<void> {
    await this.link.run(async (transport) => {
      this.link.needSeat();
      await transport.applyVideo(uid);
    });
  }

  async free(uid: number): Promise<void> {
    await this.link.run((transport) => transport.freeVideo(uid));
  }
}
