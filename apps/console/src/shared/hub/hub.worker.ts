// The hub worker: the tab's one connection to /FuncService and the live state it keeps, off the
// page's main thread (liveHub is the page's side). At 50,000 users the hub brings 12 MB of JSON a
// second; receiving and parsing it here leaves the page only what it shows (docs/decisions.md). It
// speaks MessagePack, where positions travel as binary blocks (docs/realtime.md), and JSON when the
// server will not (HubController falls back).
import { HUB_PATH } from '@intercom/contract';
import { HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { MessagePackHubProtocol } from '@microsoft/signalr-protocol-msgpack';
import { HubWorkerHost, type PagePort } from './HubWorkerHost';
import { keepRetryingPolicy } from './reconnectDelay';

// SignalR resolves a relative URL through the document, which a worker has not.
const hubUrl = new URL(HUB_PATH, self.location.origin).href;

new HubWorkerHost(
  self as unknown as PagePort,
  (token, protocol) => {
    const builder = new HubConnectionBuilder()
      .withUrl(hubUrl, { accessTokenFactory: token })
      .withAutomaticReconnect(keepRetryingPolicy())
      .configureLogging(LogLevel.Warning);
    return (protocol === 'messagepack' ? builder.withHubProtocol(new MessagePackHubProtocol()) : builder).build();
  },
  'messagepack',
);
