import { z } from 'zod';

/** `GET /api/Enterprise/Statistics` BaseData for the caller's scope. */
export const statisticsSchema = z.object({
  User: z.number().int(),
  Organ: z.number().int(),
  Channel: z.number().int(),
  Balance: z.number().int(),
  ChannelSum: z.number().int(),
  RecordSum: z.number().int(),
  Online: z.number().int(),
  Enterprise: z.number().int(),
});
export type Statistics = z.infer<typeof statisticsSchema>;
