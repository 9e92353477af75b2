import { Code, MessageKeys, type FieldError } from '@intercom/contract';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from './AppError.js';

const KNOWN_KEYS: ReadonlySet<string> = new Set(Object.values(MessageKeys));

/** A schema may name its own i18n key as the issue message (contract form fields do); else the code decides. */
function issueKey(message: string | undefined, code: string, origin?: string): string {
  return message !== undefined && KNOWN_KEYS.has(message) ? message : zodKey(code, origin);
}

function zodKey(code: string, origin?: string): string {
  switch (code) {
    case 'too_big':
      return origin === 'number' ? MessageKeys.outOfRange : MessageKeys.tooLong;
    case 'too_small':
      return origin === 'number' ? MessageKeys.outOfRange : MessageKeys.tooShort;
    case 'invalid_type':
      return MessageKeys.required;
    default:
      return MessageKeys.invalid;
  }
}

type BaseResult = { Code: number; Message: string; Params?: Record<string, string | number>; RequestId?: string };

/**
 * The failure body. Login and Refresh answer `{ Code, Message }` at the top level, like their success
 * (DESIGN.md section 4); they keep `BaseResult` too, so a client that reads the envelope works as well.
 */
function failure(request: FastifyRequest, result: BaseResult, fields?: FieldError[]) {
  const envelope = { BaseResult: result, ...(fields ? { Data: fields } : {}) };
  return request.routeOptions.config?.flatResult ? { ...result, ...envelope } : envelope;
}

/** The one place that turns every thrown error into the envelope. 5xx bodies carry only a request id. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      const result = { Code: error.code, Message: error.message, ...(error.params ? { Params: error.params } : {}) };
      return reply.status(error.status).send(failure(request, result, error.fields));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: FieldError[] = error.validation.map((v) => ({
        field: v.instancePath.replace(/^\//, '').replace(/\//g, '.') || (error.validationContext ?? ''),
        key: issueKey(v.message, v.keyword, (v.params as { origin?: string }).origin),
      }));
      return reply
        .status(400)
        .send(failure(request, { Code: Code.Validation, Message: fields[0]?.key ?? MessageKeys.validation }, fields));
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send(failure(request, { Code: Code.TooMany, Message: MessageKeys.tooMany }));
    }
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type, oversize body: the client's fault, said plainly.
      const key = status === 404 ? MessageKeys.notFound : MessageKeys.invalid;
      const code = status === 404 ? Code.NotFound : Code.Validation;
      return reply.status(status === 404 ? 404 : 400).send(failure(request, { Code: code, Message: key }));
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .status(500)
      .send(failure(request, { Code: Code.Internal, Message: MessageKeys.internal, RequestId: request.id }));
  });

  app.setNotFoundHandler((request, reply) => {
    return reply.status(404).send({ BaseResult: { Code: Code.NotFound, Message: MessageKeys.notFound } });
  });
}
