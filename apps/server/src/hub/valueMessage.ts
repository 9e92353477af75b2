import type { HubWire, Payload } from './hubWire.js';

/**
 * A `{ type, data }` message whose data is a value, not JSON text (what only MessagePack connections
 * get: GPS blocks, packed online users), built once and shared by the connections of a scope as the
 * JSON texts are: its invocation record per protocol and target, and its value for a stream item.
 */
export class ValueMessage<D = unknown> {
  readonly value: { type: string; data: D };
  private readonly records = new Map<string, Payload>();

  constructor(
    type: string,
    data: D,
    /** Bytes of its data (what a slow client's snapshot size, `snapshotChars`, counts). */
    readonly size: number,
  ) {
    this.value = { type, data };
  }

  record(target: string, wire: HubWire): Payload {
    const key = `${wire.protocol}:${target}`;
    let record = this.records.get(key);
    if (record === undefined) {
      record = wire.invocation(target, { value: this.value });
      this.records.set(key, record);
    }
    return record;
  }
}
