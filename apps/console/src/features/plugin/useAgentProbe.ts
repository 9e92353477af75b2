import { useCallback, useEffect, useState } from 'react';

/** How long the page waits for a Version reply before saying no agent runs here. */
const PROBE_TIMEOUT_MS = 2_000;

export type AgentProbe = { state: 'checking' } | { state: 'running'; version: string } | { state: 'absent' };

/**
 * Asks the monitor service on this computer (ws://127.0.0.1:<port>, docs/talk-agent-protocol.md) for
 * its Version over a short-lived connection of its own; the console's talk owner keeps its own
 * connections. An agent that refuses this page's Origin counts as absent (it cannot be used from here).
 */
export function useAgentProbe(monitorPort: number | undefined): { probe: AgentProbe; recheck: () => void } {
  const [probe, setProbe] = useState<AgentProbe>({ state: 'checking' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (monitorPort === undefined) return;
    let done = false;
    const finish = (result: AgentProbe) => {
      if (done) return;
      done = true;
      setProbe(result);
      socket?.close();
    };
    let socket: WebSocket | undefined;
    try {
      socket = new WebSocket(`ws://127.0.0.1:${monitorPort}`);
    } catch {
      finish({ state: 'absent' });
      return;
    }
    const timer = window.setTimeout(() => finish({ state: 'absent' }), PROBE_TIMEOUT_MS);
    socket.onopen = () => socket?.send(JSON.stringify({ cmd: 'Version', id: 1 }));
    socket.onmessage = (message) => {
      try {
        const reply = JSON.parse(String(message.data)) as { id?: number; ok?: boolean; version?: unknown };
        if (reply.id === 1 && reply.ok && typeof reply.version === 'string') {
          finish({ state: 'running', version: reply.version });
        }
      } catch {
        // not our reply
      }
    };
    socket.onerror = () => finish({ state: 'absent' });
    socket.onclose = () => finish({ state: 'absent' });
    return () => {
      done = true;
      window.clearTimeout(timer);
      socket?.close();
    };
  }, [monitorPort, attempt]);

  const recheck = useCallback(() => {
    setProbe({ state: 'checking' });
    setAttempt((n) => n + 1);
  }, []);
  return { probe, recheck };
}
