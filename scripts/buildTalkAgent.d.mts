import type { KeyObject } from 'node:crypto';

/**
 * Bundles apps/talk-agent into `outDir`/talk-agent.mjs and writes talk-agent.json beside it; signs it
 * with `signingKey` (default: the file TALK_AGENT_SIGNING_KEY names; undefined: unsigned).
 */
export function buildTalkAgent(
  outDir?: string,
  signingKey?: KeyObject,
): Promise<{ version: string; size: number; sha256: string; signature?: string; keyId?: string }>;
