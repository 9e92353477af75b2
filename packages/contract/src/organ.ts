import { z } from 'zod';
import { formIdOrZero, formText, optionalFormInt } from './formFields.js';
import { UserLimits } from './user.js';

export const OrganLimits = { nameMax: 32 } as const;

/** One department (organisation unit, SPEC.md section 3). OSParentID 0 is directly under the enterprise. */
export const organRowSchema = z.object({
  OSID: z.number().int(),
  E_ID: z.number().int(),
  OSParentID: z.number().int(),
  OSName: z.string(),
  U_TypeID: z.number().int(),
  PriorityLevel: z.number().int(),
});
export type OrganRow = z.infer<typeof organRowSchema>;

/** `GET /api/Organ/Entitys/{id}`: the row with its direct children and users. */
export const organDetailSchema = organRowSchema.extend({
  ChildCount: z.number().int(),
  UserCount: z.number().int(),
});
export type OrganDetail = z.infer<typeof organDetailSchema>;

/**
 * `POST /api/Organ/Save` (form): OSID 0 or absent creates. E_ID defaults to the working
 * enterprise; on an edit it must stay what it is. Absent fields of an edit stay as they are.
 */
export const organSaveSchema = z.object({
  E_ID: optionalFormInt(1, 2 ** 31 - 1),
  OSID: formIdOrZero(),
  OSParentID: z.preprocess((v) => (v === '' || v === null ? 0 : v), formIdOrZero().optional()),
  OSName: formText(OrganLimits.nameMax, 1),
  U_TypeID: optionalFormInt(0, 2 ** 31 - 1),
  PriorityLevel: optionalFormInt(UserLimits.priorityMin, UserLimits.priorityMax),
});
export type OrganSave = z.infer<typeof organSaveSchema>;
