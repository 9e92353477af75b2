import { Code, Limits, type BaseResult, type Envelope, type FieldError } from '@intercom/contract';
import { getAccessToken, noteTokenUsed } from '../storage/tokenStore';
import { ApiError, ClientErrorKeys } from './ApiError';
import { emitApiEvent } from './apiEvents';
import { renewIfDue, renewSession } from './renewSession';

type Scalar = string | number | boolean | null | undefined;
export type QueryValues = Record<string, Scalar>;

export interface RequestOptions {
  query?: QueryValues;
  /** Sent as application/x-www-form-urlencoded. */
  form?: QueryValues;
  json?: unknown;
  /** A raw body with its type (a file sent as it is, e.g. text/plain). */
  raw?: { body: Blob | string; contentType: string };
  signal?: AbortSignal;
  timeoutMs?: number;
  /** false: a session-ended answer is only thrown, the re-login dialog stays closed. */
  sessionDialog?: boolean;
  /** false: connection failures are only thrown, no toast (the caller reports them). */
  connectionToast?: boolean;
}

/** A success answer: the envelope plus the raw body (the login answer keeps its token there). */
export interface ApiAnswer<TData, TBase> extends Envelope<TData, TBase> {
  raw: Record<string, unknown>;
}

export function buildUrl(path: string, query?: QueryValues): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

function formBody(values: QueryValues): URLSearchParams {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== null) body.append(key, String(value));
  }
  return body;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `BaseResult` of an envelope, or the flat `{Code, Message}` of the login answer. */
function baseResultOf(body: unknown): BaseResult | undefined {
  if (!isRecord(body)) return undefined;
  const base = isRecord(body.BaseResult) ? body.BaseResult : body;
  if (typeof base.Code !== 'number') return undefined;
  return {
    Code: base.Code,
    Message: typeof base.Message === 'string' ? base.Message : '',
    ...(isRecord(base.Params) ? { Params: base.Params as BaseResult['Params'] } : {}),
    ...(typeof base.RequestId === 'string' ? { RequestId: base.RequestId } : {}),
  };
}

function fieldErrorsOf(body: Record<string, unknown>): FieldError[] {
  if (!Array.isArray(body.Data)) return [];
  return body.Data.filter(
    (item): item is FieldError => isRecord(item) && typeof item.field === 'string' && typeof item.key === 'string',
  );
}

function fail(error: ApiError, options: RequestOptions): never {
  if (error.connectionFailed) {
    if (options.connectionToast !== false) emitApiEvent({ type: 'connection', error });
  } else if (error.sessionEnded && options.sessionDialog !== false) {
    emitApiEvent({ type: 'session', error });
  }
  throw error;
}

/**
 * Sends one request with the bearer token and the 10 s timeout of SPEC.md section 9. A caller's
 * own abort (a cancelled query) is rethrown untouched so it never becomes a toast.
 */
async function send(method: string, path: string, options: RequestOptions, accept: string): Promise<Response> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? Limits.requestTimeoutMs);
  const onCallerAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });

  const headers: Record<string, string> = { Accept: accept };
  const token = getAccessToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.form) body = formBody(options.form);
  else if (options.raw) {
    headers['Content-Type'] = options.raw.contentType;
    body = options.raw.body;
  } else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  try {
    return await fetch(buildUrl(path, options.query), { method, headers, body, signal: controller.signal });
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    const key = timedOut ? ClientErrorKeys.timeout : ClientErrorKeys.network;
    return fail(new ApiError({ kind: timedOut ? 'timeout' : 'network', key }), options);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }
}

async function readEnvelope<TData, TBase>(
  response: Response,
  options: RequestOptions,
): Promise<ApiAnswer<TData, TBase>> {
  let body: unknown;
  try {
    body = await response.json();
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    body = undefined;
  }
  const base = baseResultOf(body);
  if (!base || !isRecord(body)) {
    return fail(
      new ApiError({ kind: 'bad_response', key: ClientErrorKeys.badResponse, status: response.status }),
      options,
    );
  }
  if (base.Code !== Code.Success) {
    return fail(
      new ApiError({
        kind: 'api',
        code: base.Code,
        key: base.Message || ClientErrorKeys.badResponse,
        params: base.Params,
        fields: fieldErrorsOf(body),
        status: response.status,
        requestId: base.RequestId,
      }),
      options,
    );
  }
  return {
    BaseResult: base,
    ...(Array.isArray(body.Data) ? { Data: body.Data as TData[] } : {}),
    ...(typeof body.Total === 'number' ? { Total: body.Total } : {}),
    ...(body.BaseData !== undefined ? { BaseData: body.BaseData as TBase } : {}),
    raw: body,
  };
}

type Method = 'GET' | 'POST' | 'DELETE' | 'PUT';

async function requestOnce<TData, TBase>(method: Method, path: string, options: RequestOptions) {
  const token = getAccessToken();
  const response = await send(method, path, options, 'application/json');
  const answer = await readEnvelope<TData, TBase>(response, options);
  if (token !== undefined && token === getAccessToken()) noteTokenUsed();
  return answer;
}

/**
 * Whether a request refused for its session may go again: after a 50014 once the session was renewed
 * (unless renewing ahead of it failed already), or when the token changed while it was under way
 * (another request or tab renewed, so the old token is unknown now).
 */
async function mayRetry(error: unknown, sentWith: string | undefined, renewedAhead: boolean | undefined) {
  if (!isSessionError(error) || sentWith === undefined) return false;
  if (getAccessToken() !== undefined && getAccessToken() !== sentWith) return true;
  if (error.code !== Code.TokenExpired || renewedAhead === false) return false;
  return renewSession();
}

function isSessionError(error: unknown): error is ApiError {
  return error instanceof ApiError && error.sessionEnded;
}

/**
 * One call of the API envelope; resolves only for Code 8888, otherwise throws an ApiError. An expired
 * access token is renewed once (SPEC.md 9) and the call repeated; only when that fails does the
 * re-login dialog open (not for a call the user's logout overtook).
 */
export async function apiRequest<TData = unknown, TBase = unknown>(
  method: Method,
  path: string,
  options: RequestOptions = {},
): Promise<ApiAnswer<TData, TBase>> {
  const renewedAhead = await renewIfDue();
  const sentWith = getAccessToken();
  try {
    return await requestOnce<TData, TBase>(method, path, { ...options, sessionDialog: false });
  } catch (error) {
    if (!(await mayRetry(error, sentWith, renewedAhead))) {
      // Logged out while it was under way: its refusal is expected, and the login page shows no dialog.
      const signedOutMeanwhile = sentWith !== undefined && getAccessToken() === undefined;
      if (isSessionError(error) && options.sessionDialog !== false && !signedOutMeanwhile) {
        emitApiEvent({ type: 'session', error });
      }
      throw error;
    }
  }
  return requestOnce<TData, TBase>(method, path, options);
}

/** GET returning `BaseData`. */
export async function getObject<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const answer = await apiRequest<never, T>('GET', path, options);
  if (answer.BaseData === undefined) {
    return fail(new ApiError({ kind: 'bad_response', key: ClientErrorKeys.badResponse, status: 200 }), options);
  }
  return answer.BaseData;
}

export interface Page<T> {
  rows: T[];
  total: number;
}

/** GET returning a list in `Data` with its `Total`. */
export async function getList<T>(path: string, options: RequestOptions = {}): Promise<Page<T>> {
  const answer = await apiRequest<T>('GET', path, options);
  const rows = answer.Data ?? [];
  return { rows, total: answer.Total ?? rows.length };
}

export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

function fileNameOf(disposition: string | null, fallback: string): string {
  const star = disposition?.match(/filename\*=UTF-8''([^;]+)/i)?.[1];
  if (star) return decodeURIComponent(star);
  return disposition?.match(/filename="?([^";]+)"?/i)?.[1] ?? fallback;
}

/**
 * GET of a file (exports). Errors still arrive as the JSON envelope; exports may take longer than
 * a page, so the caller may pass a longer timeout.
 */
export async function apiDownload(
  path: string,
  fallbackName: string,
  options: RequestOptions = {},
): Promise<DownloadedFile> {
  const response = await send('GET', path, options, '*/*');
  const type = response.headers.get('Content-Type') ?? '';
  if (!response.ok || type.includes('application/json')) {
    await readEnvelope(response, options);
    return fail(
      new ApiError({ kind: 'bad_response', key: ClientErrorKeys.badResponse, status: response.status }),
      options,
    );
  }
  const blob = await response.blob();
  return { blob, fileName: fileNameOf(response.headers.get('Content-Disposition'), fallbackName) };
}
