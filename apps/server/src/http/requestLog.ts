import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** A request slower than this is logged at `info` whatever its status. */
export const SLOW_REQUEST_MS = 1000;

/**
 * One line per request, at `debug` when it succeeded quickly and at `info` when it failed (status 400
 * and up) or took longer than {@link SLOW_REQUEST_MS}: the default `info` level of `npm start` shows
 * what needs a look instead of every poll. Fastify's "incoming request" line goes to `debug` too. An
 * error the handler did not catch keeps Fastify's `error` line. Routes with their own `logLevel` (the
 * hub, the terminal gateway) filter these lines as before.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) return super.requestCompleted(error, request, reply);
    const line = { req: request, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (reply.statusCode >= 400 || line.ms >= SLOW_REQUEST_MS) reply.log.info(line, 'request completed');
    else reply.log.debug(line, 'request completed');
  }
}
