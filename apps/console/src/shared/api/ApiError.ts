import { SESSION_ENDED_CODES, type FieldError } from '@intercom/contract';
import { tk } from '../../i18n/tk';
import type { MessageParams } from '../../i18n/translateMessage';

export type ApiErrorKind = 'api' | 'network' | 'timeout' | 'bad_response';

/** i18n keys of failures that never reached the server's envelope. */
export const ClientErrorKeys = {
  network: tk('error.network'),
  timeout: tk('error.timeout'),
  badResponse: tk('error.bad_response'),
} as const;

/**
 * Every failure of an API call. `key` is the server's `BaseResult.Message` (an i18n key, or raw
 * text from an older server) or one of ClientErrorKeys; `fields` come from a 4000's `Data`.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly code: number;
  readonly key: string;
  readonly params: MessageParams | undefined;
  readonly fields: FieldError[];
  readonly status: number;
  readonly requestId: string | undefined;

  constructor(init: {
    kind: ApiErrorKind;
    code?: number;
    key: string;
    params?: MessageParams | undefined;
    fields?: FieldError[];
    status?: number;
    requestId?: string | undefined;
  }) {
    super(init.key);
    this.kind = init.kind;
    this.code = init.code ?? 0;
    this.key = init.key;
    this.params = init.params;
    this.fields = init.fields ?? [];
    this.status = init.status ?? 0;
    this.requestId = init.requestId;
  }

  /** The session is gone (SPEC.md 4): the re-login dialog applies. */
  get sessionEnded(): boolean {
    return this.kind === 'api' && SESSION_ENDED_CODES.includes(this.code);
  }

  /** The server never answered with an envelope: the client already told the user. */
  get connectionFailed(): boolean {
    return this.kind !== 'api';
  }

  /**
   * The API client already told the user (a connection toast or the re-login dialog), so the
   * caller says nothing more.
   */
  get alreadyShown(): boolean {
    return this.connectionFailed || this.sessionEnded;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Whether `error` is an API failure the user has already been told about (see `alreadyShown`). */
export function wasShown(error: unknown): boolean {
  return isApiError(error) && error.alreadyShown;
}
