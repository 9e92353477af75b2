/** Bundles apps/talk-agent into `outDir`/talk-agent.mjs and writes talk-agent.json beside it. */
export function buildTalkAgent(outDir?: string): Promise<{ version: string; size: number; sha256: string }>;
