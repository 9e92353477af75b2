import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { onEach } from '../bus/eventBus.js';
import { AuthCodes, RedisAuthCodes, type AuthCodeStore } from './authCodes.js';
import { fileRecorder } from './fileRecorder.js';
import { SharedFloors } from './sharedFloors.js';
import { registerTalkMetrics } from './talkMetrics.js';
import { DEFAULT_TALK_OPTIONS, TalkService, type TalkOptions } from './talkService.js';
import { VideoBackplane } from '../video/videoBackplane.js';
import { DEFAULT_VIDEO_OPTIONS, VideoService, type VideoOptions } from '../video/videoService.js';

/** The talk server of this instance: floors and relay, and the dispatcher seats' one-time codes. */
export interface Talk {
  service: TalkService;
  authCodes: AuthCodeStore;
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
 * audio messages to, the VideoService it hands video messages and frames to, and the AuthCodes
 * `POST /api/Talk/AuthCode` issues. Registered after the hub (talking users show on the map) and before
 * the terminals plugin. With REDIS_URL, channel floors, their audio and the AuthCodes are shared by all
 * instances (sharedFloors.ts), and video crosses instances while seats elsewhere watch (videoInstances.ts).
 */
export const talkPlugin = fp(
  async (app: FastifyInstance, opts: TalkPluginOptions) => {
    const bundle = { ...DEFAULT_TALK_OPTIONS.bundle, fromListeners: app.deps.config.talkBundleListeners };
    const options = { ...DEFAULT_TALK_OPTIONS, bundle, ...opts.options };
    const service = new TalkService(app.deps, options, app.log);
    service.recorder = fileRecorder(app.deps, app.log);
    let authCodes: AuthCodeStore = new AuthCodes();
    const video = new VideoService(
      app.deps,
      { ...DEFAULT_VIDEO_OPTIONS, leaseMs: options.leaseMs, ...opts.video },
      app.log,
    );
    const redisConfig = app.deps.realtime.redis;
    if (redisConfig) {
      const redis = new Redis(redisConfig.url, { maxRetriesPerRequest: null });
      const floors = await SharedFloors.connect(redis, redisConfig.prefix, options, {
        note: (note) => service.remoteNote(note),
        audio: (token, frame) => service.remoteAudio(token, frame),
        call: (signal) => service.remoteCall(signal),
        error: (error, context) => app.log.error({ err: error }, context),
      });
      service.share(floors);
      authCodes = new RedisAuthCodes(redis, `${redisConfig.prefix}:talk:authcode`);
      const backplane = await VideoBackplane.connect(redis, redisConfig.prefix, video.options.leaseMs, {
        signal: (origin, signal) => video.instances.signal(origin, signal),
        frame: (origin, frame) => video.instances.frame(origin, frame),
        refused: (error) => video.instances.refused(error),
        error: (error, context) => app.log.error({ err: error }, context),
      });
      video.instances.share(backplane);
    }
    app.decorate('talk', { service, authCodes, video });
    registerTalkMetrics(app.deps.metrics, service, video);
    // Removed on any instance: the bus carries the change to every instance's listeners.
    const unsubscribe = onEach(app.deps.realtime.bus, {
      membersRemoved: (event) => service.membersRemoved(event.CID, event.UserIDs),
      channelsChanged: (event) => service.channelsChanged(event.E_ID, event.UserIDs),
      incident: (event) => {
        service.regroups.heard(event);
        service.channelsChanged(event.E_ID, [...event.joined, ...event.left]);
      },
      // An SOS or ManDown: the instance holding the terminal opens the emergency call (docs/safety.md).
      notification: (event) => {
        service.alarm(event.notification).catch((error: unknown) => app.log.error({ err: error }, 'emergency call'));
      },
    });
    app.addHook('onClose', async () => {
      unsubscribe();
      service.close();
      video.close();
      await Promise.all([service.sharedFloors?.close(), video.instances.shared?.close()]);
    });
  },
  { name: 'talk' },
);
