import type { Metrics } from '../core/metrics.js';
import type { TalkService } from './talkService.js';
import type { VideoService } from '../video/videoService.js';

/**
 * The talk and video figures read at scrape time (docs/operations.md "Metrics"): what is open now,
 * and the per-frame counts the relays keep as plain numbers (one addition per frame). Floor, call and
 * recording events are prom-client counters updated where they happen (core/metrics.ts `talk`).
 */
export function registerTalkMetrics(metrics: Metrics, talk: TalkService, video: VideoService): void {
  const relay = talk.counters;
  metrics.readLabelled(
    'intercom_talk_rooms',
    'Talk rooms open here: channels someone here hears, calls',
    'kind',
    () => {
      const { channels, calls, emergencyCalls } = talk.census();
      return { channel: channels, call: calls, emergency: emergencyCalls };
    },
  );
  metrics.read('intercom_talk_seats', 'Dispatcher seats (console audio connections) on this instance', () => {
    return talk.census().seats;
  });
  metrics.read('intercom_talk_floors_taken', 'Floors held (or pre-empted and finishing) in rooms here', () => {
    return talk.census().floorsTaken;
  });
  metrics.readCounter(
    'intercom_talk_frames_relayed_total',
    'Audio frames from talkers here relayed to their listeners (once per frame)',
    () => relay.relayed,
  );
  metrics.readCounters(
    'intercom_talk_frames_refused_total',
    'Audio frames refused: not the floor holder, malformed, over the rate, or fenced (an older holder elsewhere)',
    'reason',
    () => ({
      not_holder: relay.notHolder,
      bad_frame: relay.badFrames,
      rate_limited: relay.rateLimited,
      fenced: relay.fenced,
    }),
  );
  metrics.readCounter(
    'intercom_talk_frames_dropped_total',
    'Audio frames lost by slow listeners: the oldest waiting frame when a listener queue is full',
    () => relay.dropped,
  );
  metrics.readCounters(
    'intercom_talk_remote_frames_total',
    'Audio frames across instances (REDIS_URL): sent for listeners elsewhere, received for listeners here',
    'direction',
    () => ({ sent: relay.published, received: relay.remote }),
  );

  const frames = video.counters;
  metrics.read('intercom_video_sources', 'Terminals here that offer video (announced codecs, video rights)', () => {
    return video.census().sources;
  });
  metrics.read('intercom_video_streams', 'Video streams running here (a terminal told videoStart)', () => {
    return video.census().streams;
  });
  metrics.read('intercom_video_viewers', 'Seats watching a stream here, one per seat and stream', () => {
    return video.census().viewers;
  });
  metrics.readCounter(
    'intercom_video_frames_relayed_total',
    'Video frames relayed to their viewers (once per frame, however many watch)',
    () => frames.relayed,
  );
  metrics.readCounter(
    'intercom_video_bytes_relayed_total',
    'Bytes of the relayed video frames as the terminals sent them',
    () => frames.bytesRelayed,
  );
  metrics.readCounters(
    'intercom_video_frames_refused_total',
    'Video frames refused: no rights or no videoCaps, over the rate, malformed, or nobody watches',
    'reason',
    () => ({
      no_rights: frames.refused,
      rate_limited: frames.rateLimited,
      bad_frame: frames.badFrames,
      unwatched: frames.unwatched,
    }),
  );
  metrics.readCounters(
    'intercom_video_frames_dropped_total',
    'Video frames viewers lost: a full queue, or skipped while waiting for a key frame',
    'reason',
    () => ({ queue_full: frames.queueFull, awaiting_key: frames.awaitingKey }),
  );
  metrics.readCounters(
    'intercom_video_remote_frames_total',
    'Video frames across instances (REDIS_URL): sent for seats elsewhere, received for seats here, refused',
    'direction',
    () => ({ sent: frames.remoteSent, received: frames.remoteReceived, refused: frames.remoteRefused }),
  );
  metrics.readCounter(
    'intercom_video_key_frame_restarts_total',
    'Times a viewer fell behind, lost its queue and started again at the next key frame',
    () => frames.keyFrameRestarts,
  );
}
