import { AgentClient, AgentClientErrors } from '@intercom/agent-client';
import { TalkAgentErrors } from '@intercom/contract';
import { ProbeSchedule } from './ProbeSchedule';
import { TalkError } from './talkTypes';

/** Calls `probe` when the user may have just started the agent; returns the unsubscribe. */
export type WakeSource = (probe: () => void) => () => void;

/** A wake probe comes no sooner than this after the last attempt (focus can bounce). */
export const WAKE_GAP_MS = 2_000;

/** The window gaining focus or the tab becoming visible: the user is back, perhaps from starting the agent. */
export const windowWake: WakeSource = (probe) => {
  if (typeof window === 'undefined' || typeof document === 'undefined') return () => undefined;
  const visible = () => {
    if (document.visibilityState === 'visible') probe();
  };
  window.addEventListener('focus', probe);
  document.addEventListener('visibilitychange', visible);
  return () => {
    window.removeEventListener('focus', probe);
    document.removeEventListener('visibilitychange', visible);
  };
};

export interface AgentSocketHandlers<E> {
  open: () => void;
  close: () => void;
  /** A push of the service (`{event, ...}`); replies go to their commands. */
  text: (event: E) => void;
  binary?: (data: Uint8Array) => void;
}

/**
 * One of the agent's two WebSocket services, on the one agent-protocol client
 * (packages/agent-client): probed while it is down on the ProbeSchedule (backoff to a minute, 5 s
 * right after a loss) and again at once when the window gains focus. Every failure is a TalkError;
 * a command without the agent is `server_unreachable`.
 */
export class AgentSocket<E extends { event: string } = { event: string }> {
  private readonly client: AgentClient<E>;
  private unwake: (() => void) | undefined;

  constructor(
    url: string,
    handlers: AgentSocketHandlers<E>,
    private readonly wake: WakeSource = windowWake,
    random: () => number = Math.random,
  ) {
    this.client = new AgentClient({
      connect: () => new WebSocket(url),
      reconnect: () => new ProbeSchedule(random),
      error: (code, message) =>
        code === AgentClientErrors.closed || code === AgentClientErrors.notConnected
          ? new TalkError(TalkAgentErrors.serverUnreachable)
          : new TalkError(code, message),
    });
    this.client.on('open', handlers.open);
    this.client.on('close', handlers.close);
    this.client.on('event', handlers.text);
    this.client.on('frame', (bytes) => handlers.binary?.(bytes));
  }

  get open(): boolean {
    return this.client.isOpen;
  }

  get started(): boolean {
    return this.client.started;
  }

  start(): void {
    if (this.client.started) return;
    this.unwake = this.wake(() => this.client.reconnectNow(WAKE_GAP_MS));
    this.client.start();
  }

  stop(): void {
    this.unwake?.();
    this.unwake = undefined;
    this.client.stop();
  }

  /** Sends `{cmd, id, ...args}` and resolves with the reply; rejects with the reply's code. */
  command(cmd: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    return this.client.command(cmd, args);
  }
}
