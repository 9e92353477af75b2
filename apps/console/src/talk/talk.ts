import type { AuthCode } from '@intercom/contract';
import { apiRequest } from '../shared/api/apiClient';
import { readPreference, writePreference } from '../shared/storage/localPreference';
import { AgentTransport } from './AgentTransport';
import { BrowserTransport } from './BrowserTransport';
import { TalkClient } from './TalkClient';

/** Set once this browser found the local agent: it is then looked for at every sign-in. */
const AGENT_SEEN_KEY = 'talkAgentSeen';

/** `POST /api/Talk/AuthCode`: the one-time code a seat logs in with. */
async function fetchAuthCode(): Promise<AuthCode> {
  const answer = await apiRequest<never, AuthCode>('POST', '/api/Talk/AuthCode', { connectionToast: false });
  return answer.BaseData!;
}

/** This tab's one talk connection; TalkConnection starts and stops it with the signed-in screens. */
export const talk = new TalkClient({
  createAgent: () => new AgentTransport(),
  createBrowser: () => new BrowserTransport(),
  fetchAuthCode,
  browserProblem: async () => (await import('@intercom/browser-audio')).browserTalkProblem(),
  secureContext: typeof window !== 'undefined' && window.isSecureContext,
  agentMemory: {
    seen: () => readPreference(AGENT_SEEN_KEY) === '1',
    remember: () => writePreference(AGENT_SEEN_KEY, '1'),
  },
});
