import { describe, expect, it } from 'vitest';
import { H264_CONFIG, probeCameraAbilities, videoCodecsFor } from './videoCodecs';

const withCamera = { mediaDevices: { getUserMedia: () => undefined } };

function encoderSaying(answer: boolean | Error) {
  const asked: VideoEncoderConfig[] = [];
  return {
    asked,
    VideoEncoder: {
      isConfigSupported: (config: VideoEncoderConfig) => {
        asked.push(config);
        return answer instanceof Error ? Promise.reject(answer) : Promise.resolve({ supported: answer, config });
      },
    },
  };
}

describe('the codecs the field app announces', () => {
  it('lists H.264 first where the browser encodes it, JPEG always, nothing without a camera', () => {
    expect(videoCodecsFor({ camera: true, h264: true })).toEqual(['h264', 'jpeg']);
    expect(videoCodecsFor({ camera: true, h264: false })).toEqual(['jpeg']);
    expect(videoCodecsFor({ camera: false, h264: true })).toEqual([]);
  });

  it('asks WebCodecs for Constrained Baseline H.264 as Annex B', async () => {
    const scope = encoderSaying(true);
    expect(await probeCameraAbilities({ navigator: withCamera, VideoEncoder: scope.VideoEncoder })).toEqual({
      camera: true,
      h264: true,
    });
    expect(scope.asked).toEqual([H264_CONFIG]);
    expect(H264_CONFIG.avc?.format).toBe('annexb');
    expect(H264_CONFIG.codec.startsWith('avc1.42')).toBe(true);
  });

  it('falls back to JPEG when WebCodecs is missing, says no or throws', async () => {
    expect(await probeCameraAbilities({ navigator: withCamera })).toEqual({ camera: true, h264: false });
    const no = encoderSaying(false);
    expect(await probeCameraAbilities({ navigator: withCamera, VideoEncoder: no.VideoEncoder })).toEqual({
      camera: true,
      h264: false,
    });
    const broken = encoderSaying(new Error('no codec'));
    expect(await probeCameraAbilities({ navigator: withCamera, VideoEncoder: broken.VideoEncoder })).toEqual({
      camera: true,
      h264: false,
    });
  });

  it('has no camera without navigator.mediaDevices (an insecure page), and does not probe the encoder', async () => {
    const scope = encoderSaying(true);
    expect(await probeCameraAbilities({ navigator: {}, VideoEncoder: scope.VideoEncoder })).toEqual({
      camera: false,
      h264: false,
    });
    expect(scope.asked).toEqual([]);
  });
});
