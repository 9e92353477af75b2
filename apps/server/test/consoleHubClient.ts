import {
  AbortError,
  DefaultHttpClient,
  HttpError,
  HubConnectionBuilder,
  LogLevel,
  NullLogger,
  type HttpRequest,
  type HttpResponse,
  type HttpTransportType,
  type HubConnection,
} from '@microsoft/signalr';
import { keepRetryingPolicy } from '../../console/src/shared/hub/reconnectDelay.js';

/** One answer the balancer gave (0: no answer at all), for the "no 5xx" count. */
export interface Answer {
  at: number;
  status: number;
  what: string;
}

/** The hub's HTTP requests (negotiate, polls, sends) with their answers noted; cookies kept as the default client does. */
class NotingHttpClient extends DefaultHttpClient {
  constructor(private readonly noted: (request: HttpRequest, status: number, error?: string) => void) {
    super(NullLogger.instance);
  }

  override async send(request: HttpRequest): Promise<HttpResponse> {
    try {
      const response = await super.send(request);
      this.noted(request, response.statusCode);
      return response;
    } catch (error) {
      const status = error instanceof HttpError ? error.statusCode : 0;
      // An aborted poll (the client stopping or closing) is no answer of the balancer.
      if (!(error instanceof AbortError)) this.noted(request, status, String(error));
      throw error;
    }
  }
}

export interface ConsoleHubClient {
  hub: HubConnection;
  /** The instance the balancer pins this client to (its INTERCOM_HUB cookie), '' before any. */
  pin(): string;
  /** When the connection was last lost (onreconnecting), and when it came back. */
  lostAt: number[];
  reconnectedAt: number[];
  /** Every GPSArray (snapshot) received: when, and how many users it held. */
  snapshots: { at: number; users: number }[];
}

export interface ConsoleHubOptions {
  url: string;
  token: string;
  transport: HttpTransportType;
  /** Every answer to a hub request. */
  answers: Answer[];
  /** A line for the timeline. */
  note: (what: string) => void;
}

/**
 * A console's hub connection with the official client, as apps/console/src/shared/hub/liveHub.ts
 * builds it (the console's own reconnect policy: at once, then back-off, never giving up), that
 * subscribes to FuncGPS again after each reconnect as the console's HubController does.
 */
export async function connectConsole(options: ConsoleHubOptions): Promise<ConsoleHubClient> {
  const { url, token, transport, answers, note } = options;
  const http = new NotingHttpClient((request, status, error) => {
    const what = `${request.method} ${new URL(request.url ?? '', url).pathname}`;
    answers.push({ at: Date.now(), status, what });
    // Polls and sends that succeed are the steady state: only the rest goes into the timeline.
    if (what.endsWith('/negotiate') || status !== 200) {
      note(`${what} -> ${status || error} (pinned to ${client.pin() || 'none'})`);
    }
  });
  const hub = new HubConnectionBuilder()
    .withUrl(`${url}/FuncService`, { accessTokenFactory: () => token, transport, httpClient: http })
    .withAutomaticReconnect(keepRetryingPolicy())
    .configureLogging({
      log: (level, message) => {
        if (level >= LogLevel.Information) note(message);
      },
    })
    .build();
  const client: ConsoleHubClient = {
    hub,
    pin: () => /INTERCOM_HUB=([^;]+)/.exec(http.getCookieString(url))?.[1] ?? '',
    lostAt: [],
    reconnectedAt: [],
    snapshots: [],
  };
  hub.onreconnecting((error) => {
    client.lostAt.push(Date.now());
    note(`reconnecting: ${error?.message ?? 'no error'}`);
  });
  hub.onreconnected(() => {
    client.reconnectedAt.push(Date.now());
    note(`reconnected (pinned to ${client.pin()})`);
    hub.invoke('FuncGPS').catch((error: unknown) => note(`FuncGPS failed: ${String(error)}`));
  });
  hub.on('pushMsg', (message: { type: string; data: unknown[] }) => {
    if (message.type !== 'GPSArray') return;
    client.snapshots.push({ at: Date.now(), users: message.data.length });
    note(`snapshot of ${message.data.length} users`);
  });
  await hub.start();
  await hub.invoke('FuncGPS');
  return client;
}
