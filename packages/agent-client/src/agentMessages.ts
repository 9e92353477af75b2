/** What the agent sends on a text frame, sorted (docs/talk-agent-protocol.md, "Messages"). */
export type AgentMessage = Readonly<Record<string, unknown>>;

export type SortedMessage =
  /** `{id, ok, ...}`: `id` null answers a frame the agent could not read (`bad_json`). */
  | { kind: 'reply'; message: AgentMessage & { id: number | null; ok: boolean } }
  /** `{event, ...fields}`. */
  | { kind: 'event'; message: AgentMessage & { event: string } }
  /** Not JSON, not an object, or an object that is neither a reply nor an event. */
  | { kind: 'invalid' };

export function sortAgentMessage(text: string): SortedMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'invalid' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'invalid' };
  const message = value as Record<string, unknown>;
  if (typeof message.event === 'string') return { kind: 'event', message: message as { event: string } };
  const id = message.id;
  if (typeof message.ok === 'boolean' && (id === null || (typeof id === 'number' && Number.isInteger(id)))) {
    return { kind: 'reply', message: message as { id: number | null; ok: boolean } };
  }
  return { kind: 'invalid' };
}

/** A binary frame's bytes: `ws` gives a Buffer (a Uint8Array), a browser an ArrayBuffer. */
export function frameBytes(data: unknown): Uint8Array | undefined {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return undefined;
}
