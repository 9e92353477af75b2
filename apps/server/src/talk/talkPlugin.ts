import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { AuthCodes } from './authCodes.js';
import { fileRecorder } from './fileRecorder.js';
import { DEFAULT_TALK_OPTIONS, TalkService, type TalkOptions } from './talkService.js';
import { DEFAULT_VIDEO_OPTIONS, VideoService, type VideoOptions } from './videoService.js';

/** The talk server of this instance: floors and relay, and the dispatcher seats' one-time codes. */
export interface Talk {
  service: TalkService;
  authCodes: AuthCodes;
  /** Terminals' video and the seats watching it. */
  video: VideoService;
}

declare module 'fastify' {
  interface FastifyInstance {
    talk: Talk;
  }
}

export interface TalkPluginOptions {
  options?: Partial<TalkOptions>;
  video?: Partial<VideoOptions>;
}

/**
 * Push-to-talk (DESIGN.md 7): the TalkService the terminal gateway hands channel, floor, call and
 * audio messages to, the VideoService it hands video messages and frames to, and the AuthCodes `POST /api/Talk/AuthCode` issues. Registered after the hub
 * (talking users show on the map) and before the terminals plugin.
 */
export const talkPlugin = fp(
  async (app: FastifyInstance, opts: TalkPluginOptions) => {
    const service = new TalkService(app.deps, { ...DEFAULT_TALK_OPTIONS, ...opts.options }, app.log);
    service.recorder = fileRecorder(app.deps, app.log);
    const video = new VideoService(app.deps, { ...DEFAULT_VIDEO_OPTIONS, ...opts.video }, app.log);
    app.decorate('talk', { service, authCodes: new AuthCodes(), video });
    app.addHook('onClose', async () => {
      service.close();
      video.close();
    });
  },
  { name: 'talk' },
);
