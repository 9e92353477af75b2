import { z } from 'zod';

/** `BaseResult` of every response. `Message` is an i18n key on failure; `Params` fill its placeholders. */
export const baseResultSchema = z.object({
  Code: z.number().int(),
  Message: z.string(),
  Params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  RequestId: z.string().optional(),
});
export type BaseResult = z.infer<typeof baseResultSchema>;

/** One field error of a 4000 response. */
export const fieldErrorSchema = z.object({ field: z.string(), key: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

export interface Envelope<TData = unknown, TBase = unknown> {
  BaseResult: BaseResult;
  Data?: TData[];
  Total?: number;
  BaseData?: TBase;
}

/** Schema of a success envelope carrying one object in `BaseData`. */
export function objectEnvelope<T extends z.ZodType>(base: T) {
  return z.object({ BaseResult: baseResultSchema, BaseData: base });
}

/** Schema of a success envelope carrying a list in `Data` and its `Total`. */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ BaseResult: baseResultSchema, Data: z.array(item), Total: z.number().int() });
}

export const emptyEnvelopeSchema = z.object({ BaseResult: baseResultSchema });
