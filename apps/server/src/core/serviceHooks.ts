import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { serviceContext, type ServiceContext } from './serviceContext.js';

/** What the generic entity routes hand a Save or Delete (their EntityContext has more). */
interface EntityRequest {
  request: FastifyRequest;
}

/** An entity's generic Save answered by a service; `body` has validated the input before it runs. */
export function serviceSave<T>(
  body: z.ZodType<T>,
  save: (ctx: ServiceContext, input: T) => Promise<unknown>,
): { body: z.ZodType<T>; handler: (ctx: EntityRequest, input: unknown) => Promise<unknown> } {
  return { body, handler: (ctx, input) => save(serviceContext(ctx.request), input as T) };
}

/** An entity's generic Delete answered by a service. */
export function serviceRemove(
  remove: (ctx: ServiceContext, id: number) => Promise<void>,
): (ctx: EntityRequest, id: number) => Promise<void> {
  return (ctx, id) => remove(serviceContext(ctx.request), id);
}
