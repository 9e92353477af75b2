import { JsonHubProtocol, MessageType, type HubMessage, type ILogger } from '@microsoft/signalr';
import { parsePushInSlices, yieldToPage, type Yield } from './parsePushInSlices';

const RS = '\u001e';

/** Records shorter than this are parsed at once: slicing pays only for long ones. */
export const SLICED_FROM_CHARS = 512 * 1024;

/**
 * SignalR's JSON hub protocol (the server's only one; the wire stays the same), except that a long
 * push with a list per user (positions, online users) is not parsed in the WebSocket's message
 * task: its argument becomes a `SlicedPush` whose list is parsed slice by slice (parsePushInSlices).
 * A snapshot of 50,000 users is 37 MB of JSON, 0.2-0.4 s of `JSON.parse` in one task on the main
 * thread otherwise. HubController awaits the data in order with the other messages.
 */
export class SlicedJsonHubProtocol extends JsonHubProtocol {
  constructor(
    private readonly yieldToPageFn: Yield = yieldToPage,
    private readonly slicedFrom = SLICED_FROM_CHARS,
  ) {
    super();
  }

  override parseMessages(input: string, logger: ILogger): HubMessage[] {
    if (typeof input !== 'string' || input.length < this.slicedFrom || !input.endsWith(RS)) {
      return super.parseMessages(input, logger);
    }
    const messages: HubMessage[] = [];
    let rest = '';
    for (const record of input.split(RS).slice(0, -1)) {
      const sliced = record.length >= this.slicedFrom ? parsePushInSlices(record, this.yieldToPageFn) : undefined;
      if (!sliced) {
        rest += record + RS;
        continue;
      }
      // Keep the order of the records around it.
      if (rest) messages.push(...super.parseMessages(rest, logger));
      rest = '';
      messages.push({ type: MessageType.Invocation, target: sliced.target, arguments: [sliced] });
    }
    if (rest) messages.push(...super.parseMessages(rest, logger));
    return messages;
  }
}
