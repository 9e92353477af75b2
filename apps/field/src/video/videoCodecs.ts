import type { VideoCodecName } from '@intercom/contract';

/** The picture the camera sends: modest, so a phone's uplink and CPU keep up. */
export const CAMERA_PICTURE = { width: 640, height: 360, fps: 12 } as const;

/**
 * What the field app asks WebCodecs for: Constrained Baseline (no B-frames, what every decoder and
 * the simulator's clip use), Annex B access units (docs/terminal-protocol.md "Video frames"), tuned
 * for real time.
 */
export const H264_CONFIG: VideoEncoderConfig = {
  codec: 'avc1.42e01f',
  width: CAMERA_PICTURE.width,
  height: CAMERA_PICTURE.height,
  framerate: CAMERA_PICTURE.fps,
  bitrate: 600_000,
  latencyMode: 'realtime',
  avc: { format: 'annexb' },
};

export interface CameraAbilities {
  /** The browser can capture video (`navigator.mediaDevices.getUserMedia`). */
  camera: boolean;
  /** WebCodecs can encode `H264_CONFIG`. */
  h264: boolean;
}

/** The `videoCaps` codecs, best first: H.264 where the browser encodes it, JPEG always; none without a camera. */
export function videoCodecsFor(abilities: CameraAbilities): VideoCodecName[] {
  if (!abilities.camera) return [];
  return abilities.h264 ? ['h264', 'jpeg'] : ['jpeg'];
}

interface CodecsGlobal {
  navigator?: { mediaDevices?: { getUserMedia?: unknown } };
  VideoEncoder?: { isConfigSupported(config: VideoEncoderConfig): Promise<VideoEncoderSupport> };
}

/** What this browser can do; a WebCodecs that throws or says no leaves JPEG. */
export async function probeCameraAbilities(scope: CodecsGlobal = globalThis): Promise<CameraAbilities> {
  const camera = typeof scope.navigator?.mediaDevices?.getUserMedia === 'function';
  if (!camera || !scope.VideoEncoder) return { camera, h264: false };
  try {
    const support = await scope.VideoEncoder.isConfigSupported(H264_CONFIG);
    return { camera, h264: support.supported === true };
  } catch {
    return { camera, h264: false };
  }
}
