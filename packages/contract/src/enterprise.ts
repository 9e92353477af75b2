import { z } from 'zod';
import { formId, formIdOrZero, formText, optionalFormBool, optionalFormDate, optionalFormInt } from './formFields.js';
import { MessageKeys } from './messages.js';

/** Limits of enterprises (docs/api.md, "Enterprises"). */
export const EnterpriseLimits = {
  codeMin: 2,
  codeMax: 32,
  nameMax: 64,
  quotaMax: 1_000_000,
} as const;

/** Company codes: 2-32 letters, digits, underscore or hyphen; unique on the platform. */
export function checkEnterpriseCode(value: string): string | null {
  const pattern = new RegExp(`^[A-Za-z0-9_-]{${EnterpriseLimits.codeMin},${EnterpriseLimits.codeMax}}$`);
  return pattern.test(value) ? null : MessageKeys.enterpriseCodeInvalid;
}

export const enterpriseRowSchema = z.object({
  E_ID: z.number().int(),
  E_Code: z.string(),
  E_Name: z.string(),
  P_ID: z.number().int().nullable(),
  A_ID: z.number().int().nullable(),
  Quota: z.number().int(),
  ExpireAt: z.number().int().nullable(),
  Disabled: z.number().int(),
  CreatedAt: z.number().int(),
});
export type EnterpriseRow = z.infer<typeof enterpriseRowSchema>;

/** `GET /api/Enterprise/Entitys/{id}`: the row with its users, licences left and sub-enterprises. */
export const enterpriseDetailSchema = enterpriseRowSchema.extend({
  UserCount: z.number().int(),
  /** Licences left: Quota minus the enterprise's own users (never below 0). */
  Balance: z.number().int(),
  ChildCount: z.number().int(),
});
export type EnterpriseDetail = z.infer<typeof enterpriseDetailSchema>;

/**
 * `POST /api/Enterprise/Save` (admin): E_ID 0 or absent creates a sub-enterprise under P_ID
 * (default: the working enterprise); otherwise edits a sub-enterprise. Absent fields stay as they are.
 */
export const enterpriseSaveSchema = z
  .object({
    E_ID: formIdOrZero(),
    P_ID: optionalFormInt(1, 2 ** 31 - 1),
    E_Code: formText(EnterpriseLimits.codeMax, 1)
      .superRefine((v, ctx) => {
        const key = checkEnterpriseCode(v);
        if (key) ctx.addIssue({ code: 'custom', message: key });
      })
      .optional(),
    E_Name: formText(EnterpriseLimits.nameMax, 1).optional(),
    Quota: optionalFormInt(0, EnterpriseLimits.quotaMax),
    ExpireAt: optionalFormDate(),
    Disabled: optionalFormBool(),
  })
  .superRefine((v, ctx) => {
    if (v.E_ID !== 0) return;
    for (const field of ['E_Code', 'E_Name'] as const) {
      if (v[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: MessageKeys.required });
    }
  });
export type EnterpriseSave = z.infer<typeof enterpriseSaveSchema>;

/** `POST /api/Enterprise/SwitchWorking`: the enterprise the console works in from now on (this session). */
export const switchWorkingSchema = z.object({ E_ID: formId() });

export const enterpriseBriefSchema = z.object({
  E_ID: z.number().int(),
  E_Code: z.string(),
  E_Name: z.string(),
  P_ID: z.number().int().nullable(),
  Disabled: z.number().int(),
});
export type EnterpriseBrief = z.infer<typeof enterpriseBriefSchema>;

/** `GET /api/Enterprise/Working`: the account's own enterprise, the working one, and the choices of the top bar. */
export const workingEnterpriseSchema = z.object({
  own: enterpriseBriefSchema,
  working: enterpriseBriefSchema,
  choices: z.array(enterpriseBriefSchema),
});
export type WorkingEnterprise = z.infer<typeof workingEnterpriseSchema>;

/** Levels of the organisation tree (SPEC.md section 3). */
export const OrgLevel = { enterprise: 0, department: 1, user: 2 } as const;

/**
 * One node of the organisation tree. `id` is the E_ID, OSID or UserID of its level and `pId` its
 * parent's id (0 at the top); `aid` is unique across levels (`E12`, `O34`, `U56`).
 */
export const orgTreeNodeSchema = z.object({
  id: z.number().int(),
  pId: z.number().int(),
  aid: z.string(),
  name: z.string(),
  eid: z.number().int(),
  level: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  /** enterprise | department | user, plus ` locked` / ` expired` for users. */
  class: z.string(),
  /** Users of the node's subtree; 0 for a user. */
  userCount: z.number().int(),
  icon: z.string(),
  /** True when expanding the node can show something. */
  isParent: z.boolean(),
  /** Users only: the phone (the terminal's account). */
  phone: z.string().optional(),
});
export type OrgTreeNode = z.infer<typeof orgTreeNodeSchema>;

/**
 * `GET /api/Organ/GetOrganizeList?eid=&id=&offset=&limit=`: the children of one node. Without eid:
 * the working enterprise's node followed by its children. id 0 (or absent) lists an enterprise's
 * sub-enterprises, top departments and users without a department; id > 0 a department's children.
 * Users come `limit` at a time from `offset`.
 */
export const orgTreeQuerySchema = z.object({
  eid: optionalFormInt(1, 2 ** 31 - 1),
  id: optionalFormInt(0, 2 ** 31 - 1).default(0),
  offset: optionalFormInt(0, 10_000_000).default(0),
  limit: optionalFormInt(1, 500).default(200),
});
