import { TalkAgentPorts } from '@intercom/contract';

/** The fixed command line (issue 13; tools outside the repository rely on it). */
export interface AgentOptions {
  /** The platform's origin (http(s)://host:port): allowed as an Origin, and where Update fetches from. */
  server: string;
  /** Origins allowed to open the local services: the server's and every --allow-origin. */
  allowOrigins: string[];
  monitorPort: number;
  talkPort: number;
  micFile?: string;
  speakerFile?: string;
  /** --allow-unsigned-update: Update takes a package the build did not sign (set only when given). */
  allowUnsignedUpdate?: true;
}

export const USAGE = `Usage: npm run talk-agent -- --server <url> [--allow-origin <origin>]... [--monitor-port ${TalkAgentPorts.monitor}] [--talk-port ${TalkAgentPorts.talk}] [--mic-file <wav>] [--speaker-file <wav>] [--allow-unsigned-update]`;

/** An origin as browsers send it (`scheme://host[:port]`, no path), or an error naming the flag. */
function originOf(value: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${flag}: not a URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${flag}: must be http(s): ${value}`);
  return url.origin;
}

function portOf(value: string, flag: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`${flag}: not a port: ${value}`);
  return port;
}

/** Parses argv (without node and the script); throws an Error with a message for the user on bad input. */
export function parseAgentOptions(argv: readonly string[]): AgentOptions {
  let server: string | undefined;
  const extra: string[] = [];
  const options: Omit<AgentOptions, 'server' | 'allowOrigins'> = {
    monitorPort: TalkAgentPorts.monitor,
    talkPort: TalkAgentPorts.talk,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i]!;
    // The one flag without a value.
    if (flag === '--allow-unsigned-update') {
      options.allowUnsignedUpdate = true;
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) throw new Error(`${flag} needs a value`);
    i += 1;
    switch (flag) {
      case '--server':
        server = originOf(value, flag);
        break;
      case '--allow-origin':
        extra.push(originOf(value, flag));
        break;
      case '--monitor-port':
        options.monitorPort = portOf(value, flag);
        break;
      case '--talk-port':
        options.talkPort = portOf(value, flag);
        break;
      case '--mic-file':
        options.micFile = value;
        break;
      case '--speaker-file':
        options.speakerFile = value;
        break;
      default:
        throw new Error(`unknown option ${flag}`);
    }
  }
  if (!server) throw new Error('--server <url> is required');
  return { ...options, server, allowOrigins: [...new Set([server, ...extra])] };
}
