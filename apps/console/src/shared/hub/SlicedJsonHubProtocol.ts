import { JsonHubProtocol, MessageType, type HubMessage, type ILogger } from '@microsoft/signalr';
import { parseGpsInSlices, yieldToPage, type Yield } from './parseGpsInSlices';

const RS = '\u001e';

/** Records shorter than this are parsed at once: slicing pays only for long ones. */
export const SLICED_FROM_CHARS = 512 * 1024;

/**
 * SignalR's JSON hub protocol (the server's only one; the wire stays the same), except that a long
 * `pushMsg` of positions is not parsed in the WebSocket's message task: its argument becomes a
 * `SlicedGps` whose records are parsed slice by slice (parseGpsInSlices). A snapshot of 50,000
 * users is 37 MB of JSON, 0.2-0.4 s of `JSON.parse` in one task on the main thread otherwise.
 * HubController awaits the records in order with the other messages.
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
      const sliced = record.length >= this.slicedFrom ? parseGpsInSlices(record, this.yieldToPageFn) : undefined;
      if (!sliced) {
        rest += record + RS;
        continue;
      }
      // Keep the order of the records around it.
      if (rest) messages.push(...super.parseMessages(rest, logger));
      rest = '';
      messages.push({ type: MessageType.Invocation, target: 'pushMsg', arguments: [sliced] });
    }
    if (rest) messages.push(...super.parseMessages(rest, logger));
    return messages;
  }
}
