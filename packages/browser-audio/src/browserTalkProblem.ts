import { OPUS_CONFIG } from './opusConfig';

/** Why browser talk cannot run here (i18n keys under talk.status in both apps), or null when it can. */
export type BrowserTalkProblem = 'insecure_context' | 'no_webcodecs';

export async function browserTalkProblem(): Promise<BrowserTalkProblem | null> {
  if (!window.isSecureContext || !navigator.mediaDevices?.getUserMedia) return 'insecure_context';
  if (typeof AudioEncoder === 'undefined' || typeof AudioDecoder === 'undefined') return 'no_webcodecs';
  const encode = await AudioEncoder.isConfigSupported(OPUS_CONFIG).catch(() => ({ supported: false }));
  return encode.supported ? null : 'no_webcodecs';
}
