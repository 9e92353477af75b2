import { NullSpeaker, type Microphone, type Speaker } from './audioBackend.js';
import { WavFileMicrophone, WavFileSpeaker } from './fileAudio.js';
import { ProcessMicrophone, ProcessSpeaker, findAudioTool } from './processAudio.js';

/** --mic-file / --speaker-file first; else the system devices through sox or ffmpeg; else none. */
export function chooseAudio(options: { micFile?: string; speakerFile?: string }): {
  microphone: Microphone | undefined;
  speaker: Speaker;
} {
  const tool = options.micFile && options.speakerFile ? undefined : findAudioTool();
  const microphone = options.micFile
    ? new WavFileMicrophone(options.micFile)
    : tool
      ? new ProcessMicrophone(tool)
      : undefined;
  const speaker = options.speakerFile
    ? new WavFileSpeaker(options.speakerFile)
    : tool
      ? new ProcessSpeaker(tool)
      : new NullSpeaker();
  return { microphone, speaker };
}
