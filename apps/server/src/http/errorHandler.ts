import { Code, MessageKeys, type FieldError } from '@intercom/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from './AppError.js';

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

/** The one place that turns every thrown error into the envelope. 5xx bodies carry only a request id. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send({
        BaseResult: { Code: error.code, Message: error.message, ...(error.params ? { Params: error.params } : {}) },
        ...(error.fields ? { Data: error.fields } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: FieldError[] = error.validation.map((v) => ({
        field: v.instancePath.replace(/^\//, '').replace(/\//g, '.') || (error.validationContext ?? ''),
        key: zodKey(v.keyword, (v.params as { origin?: string }).origin),
      }));
      return reply.status(400).send({
        BaseResult: { Code: Code.Validation, Message: fields[0]?.key ?? MessageKeys.validation },
        Data: fields,
      });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({ BaseResult: { Code: Code.TooMany, Message: MessageKeys.tooMany } });
    }
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type, oversize body: the client's fault, said plainly.
      const key = status === 404 ? MessageKeys.notFound : MessageKeys.invalid;
      const code = status === 404 ? Code.NotFound : Code.Validation;
      return reply.status(status === 404 ? 404 : 400).send({ BaseResult: { Code: code, Message: key } });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({
      BaseResult: { Code: Code.Internal, Message: MessageKeys.internal, RequestId: request.id },
    });
  });

  app.setNotFoundHandler((request, reply) => {
    return reply.status(404).send({ BaseResult: { Code: Code.NotFound, Message: MessageKeys.notFound } });
  });
}
