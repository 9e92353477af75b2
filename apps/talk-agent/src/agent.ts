import { spawn } from 'node:child_process';
import type { KeyObject } from 'node:crypto';
import {
  monitorAgentCommandSchema,
  monitorAgentCommands,
  talkAgentCommandSchema,
  talkAgentCommands,
  type MonitorAgentCommand,
  type TalkAgentCommand,
} from '@intercom/contract';
import type { Microphone, Speaker } from './audio/audioBackend.js';
import { chooseAudio } from './audio/chooseAudio.js';
import { Playout } from './audio/playout.js';
import { CommandServer } from './commandServer.js';
import type { AgentOptions } from './options.js';
import { selfUpdate, type UpdateResult } from './selfUpdate.js';
import { TalkSession } from './talkSession.js';
import { pinnedUpdateKeys } from './updateSignature.js';
import { AGENT_VERSION } from './version.js';

export interface AgentHooks {
  /** Audio back-ends instead of chooseAudio's (the benchmark measures with its own). */
  audio?: { microphone: Microphone | undefined; speaker: Speaker };
  /** What Update does once the new script is written (default: restart the process on it). */
  restart?: (script: string, agent: Agent) => void;
  /** The folder Update writes the new script to (default: updateDir(), per user). */
  updateDir?: string;
  /** The keys an update must be signed with instead of the pinned ones (tests; not on the command line). */
  updateKeys?: readonly KeyObject[];
  /** Where the agent's log lines go (default: stderr, each line after its time). */
  log?: (line: string) => void;
}

/** The operator's log: one line a command and a Login's steps, on stderr. */
function logToStderr(line: string): void {
  process.stderr.write(`${new Date().toISOString()} ${line}\n`);
}

export interface Agent {
  monitorPort: number;
  talkPort: number;
  session: TalkSession;
  playout: Playout;
  close(): Promise<void>;
}

/** Starts the process again on `script` with the same arguments, once the ports are free. */
async function restartOn(script: string, agent: Agent): Promise<void> {
  await agent.close();
  spawn(process.execPath, [script, ...process.argv.slice(2)], { detached: true, stdio: 'inherit' }).unref();
  process.exit(0);
}

const names = (commands: readonly { shape: { cmd: { value: string } } }[]) => commands.map((c) => c.shape.cmd.value);

/** The local talk service: talk (12002) and monitor (12001) on 127.0.0.1. */
export async function startAgent(options: AgentOptions, hooks: AgentHooks = {}): Promise<Agent> {
  const { microphone, speaker } = hooks.audio ?? chooseAudio(options);
  const playout = new Playout(speaker);
  const log = hooks.log ?? logToStderr;
  // The closures below run only once both exist (a command, an event), after these lines.
  const talk: CommandServer<TalkAgentCommand> = new CommandServer<TalkAgentCommand>({
    port: options.talkPort,
    allowOrigins: options.allowOrigins,
    name: 'talk',
    log,
    schema: talkAgentCommandSchema,
    commandNames: names(talkAgentCommands),
    handle: (command) => session.handle(command),
  });
  const session = new TalkSession({
    allowOrigins: options.allowOrigins,
    microphone,
    playout,
    log,
    emit: (event) => talk.broadcast(event),
    emitBinary: (frame) => talk.broadcastBinary(frame),
  });
  const updateKeys = hooks.updateKeys ?? pinnedUpdateKeys();
  const restart = hooks.restart ?? ((script, a) => void restartOn(script, a));
  // One update at a time: an Update while one runs waits for the same result.
  let updating: Promise<UpdateResult> | undefined;
  const update = (): Promise<UpdateResult> =>
    (updating ??= selfUpdate(
      {
        server: options.server,
        keys: updateKeys,
        allowUnsigned: options.allowUnsignedUpdate === true,
        dir: hooks.updateDir,
      },
      (event) => monitor.broadcast(event),
    )
      .then((result) => {
        // After the replies are on their way: restarting closes every connection.
        if (result.script) setTimeout(() => restart(result.script!, agent), 100);
        return result;
      })
      .finally(() => (updating = undefined)));
  const monitor: CommandServer<MonitorAgentCommand> = new CommandServer<MonitorAgentCommand>({
    port: options.monitorPort,
    allowOrigins: options.allowOrigins,
    name: 'monitor',
    log,
    schema: monitorAgentCommandSchema,
    commandNames: names(monitorAgentCommands),
    handle: (command): Promise<Record<string, unknown>> => {
      switch (command.cmd) {
        case 'Version':
          return Promise.resolve({ version: AGENT_VERSION, server: options.server });
        case 'Health':
          return Promise.resolve({
            talk: 'running',
            ...session.info(),
            speaker: speaker.name,
            framesSent: session.framesSent,
            framesPlayed: playout.framesPlayed,
          });
        case 'Update':
          // The reply comes once the package is checked: a refusal is an error reply with its code
          // (every monitor connection also sees the `update` events).
          return update().then((result) => ({ version: AGENT_VERSION, update: result.version }));
        default:
          return Promise.reject(new Error('unreachable'));
      }
    },
  });
  const [talkPort, monitorPort] = await Promise.all([talk.listening, monitor.listening]).catch(
    async (error: unknown) => {
      await Promise.allSettled([talk.close(), monitor.close()]);
      throw error;
    },
  );
  const agent: Agent = {
    talkPort,
    monitorPort,
    session,
    playout,
    async close() {
      await session.close();
      await Promise.all([talk.close(), monitor.close()]);
      playout.close();
    },
  };
  return agent;
}
