import { Code, MessageKeys, httpStatusOf, type CodeValue, type FieldError } from '@intercom/contract';

type Params = Record<string, string | number>;

/** A failure that becomes the envelope with its code and HTTP status; `message` is an i18n key. */
export class AppError extends Error {
  constructor(
    readonly code: CodeValue,
    message: string,
    readonly params?: Params,
    readonly fields?: FieldError[],
  ) {
    super(message);
  }

  get status(): number {
    return httpStatusOf[this.code];
  }

  static validation(fields: FieldError[], message: string = fields[0]?.key ?? MessageKeys.validation): AppError {
    return new AppError(Code.Validation, message, undefined, fields);
  }

  static field(field: string, key: string): AppError {
    return AppError.validation([{ field, key }], key);
  }

  static notFound(): AppError {
    return new AppError(Code.NotFound, MessageKeys.notFound);
  }

  static forbidden(): AppError {
    return new AppError(Code.Forbidden, MessageKeys.forbidden);
  }

  static conflict(message: string, params?: Params): AppError {
    return new AppError(Code.Conflict, message, params);
  }
}
