import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The bundle scripts/build.mjs writes: apps/talk-agent/dist, four levels above this file in src/ and dist/. */
const DEFAULT_DIR = fileURLToPath(new URL('../../../../talk-agent/dist/', import.meta.url));
export const PACKAGE_FILE = 'talk-agent.mjs';
const MANIFEST_FILE = 'talk-agent.json';

const manifestSchema = z.object({
  version: z.string().min(1).max(64),
  size: z.number().int(),
  sha256: z.string(),
  /** The build's Ed25519 signature (base64) when TALK_AGENT_SIGNING_KEY was set (scripts/talkAgentSigning.mjs). */
  signature: z
    .string()
    .regex(/^[A-Za-z0-9+/]{86}==$/)
    .optional(),
});
export type TalkAgentManifest = z.infer<typeof manifestSchema> & { file: string };

/**
 * The built talk agent, when there is one: read on each request (a rebuild or an upgrade swaps the
 * files under a running server). Undefined when the bundle or its manifest is missing or unreadable.
 */
export function talkAgentPackage(dir: string | undefined): TalkAgentManifest | undefined {
  const base = dir ?? DEFAULT_DIR;
  try {
    const manifest = manifestSchema.parse(JSON.parse(fs.readFileSync(path.join(base, MANIFEST_FILE), 'utf8')));
    const file = path.join(base, PACKAGE_FILE);
    if (!fs.statSync(file).isFile()) return undefined;
    return { ...manifest, file };
  } catch {
    return undefined;
  }
}
