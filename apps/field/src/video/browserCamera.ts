import type { Camera } from './cameraSender';
import { CAMERA_PICTURE } from './videoCodecs';

/** The rear camera at a modest size and rate; the front one (or any) where a device has no rear. */
const CONSTRAINTS: MediaStreamConstraints = {
  audio: false,
  video: {
    facingMode: 'environment',
    width: { ideal: CAMERA_PICTURE.width },
    height: { ideal: CAMERA_PICTURE.height },
    frameRate: { ideal: CAMERA_PICTURE.fps, max: 15 },
  },
};

/**
 * Opens the rear camera into a hidden video element and draws its current picture, scaled to
 * `CAMERA_PICTURE`, onto a canvas on each `grab` (one fixed size, what the H.264 encoder was set up for).
 */
export async function openRearCamera(devices: MediaDevices = navigator.mediaDevices): Promise<Camera> {
  const stream = await devices.getUserMedia(CONSTRAINTS);
  const stopTracks = () => stream.getTracks().forEach((track) => track.stop());
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  try {
    await video.play();
  } catch (error) {
    stopTracks();
    throw error;
  }
  const canvas = document.createElement('canvas');
  canvas.width = CAMERA_PICTURE.width;
  canvas.height = CAMERA_PICTURE.height;
  const context = canvas.getContext('2d');
  return {
    grab: () => {
      context?.drawImage(video, 0, 0, canvas.width, canvas.height);
      return canvas;
    },
    stop: () => {
      stopTracks();
      video.pause();
      video.srcObject = null;
    },
  };
}
