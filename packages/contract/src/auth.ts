import { z } from 'zod';

/** `GET /api/UAuth/PublicKey` BaseData. `spki` is base64 DER of an RSA public key. */
export const publicKeySchema = z.object({
  keyId: z.string(),
  alg: z.literal('RSA-OAEP-256'),
  spki: z.string(),
});
export type PublicKey = z.infer<typeof publicKeySchema>;

/** `POST /api/UAuth/Login` form body (DESIGN.md section 4). */
export const loginFormSchema = z.object({
  appId: z.string().min(1).max(64),
  companyId: z.string().max(64).optional().default(''),
  appSecret: z.string().min(1).max(2048),
  data: z.string().min(1).max(8192),
  keyId: z.string().max(128).optional(),
});
export type LoginForm = z.infer<typeof loginFormSchema>;

/** The JSON inside the encrypted `data`; `time` is epoch ms followed by `_admin`. */
export const loginPayloadSchema = z.object({
  username: z.string().max(64),
  password: z.string().max(128),
  code: z.string().max(64),
  time: z.string().regex(/^\d{10,16}_admin$/),
});
export type LoginPayload = z.infer<typeof loginPayloadSchema>;

/** Login answers carry the token in `Message` (SPEC.md section 4) and as named fields. */
export const loginResultSchema = z.object({
  Code: z.number().int(),
  Message: z.string(),
  Params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  access_token: z.string().optional(),
  refresh_token: z.string().optional(),
  expires_in: z.number().int().optional(),
});
export type LoginResult = z.infer<typeof loginResultSchema>;

export const refreshFormSchema = z.object({ refresh_token: z.string().min(1).max(256) });

export const roleSchema = z.enum(['admin', 'editor']);
export type Role = z.infer<typeof roleSchema>;
export const ROLES: readonly Role[] = roleSchema.options;

/** `GET /api/Account/LoginInfo` BaseData. */
export const loginInfoSchema = z.object({
  E_ID: z.number().int(),
  E_Code: z.string(),
  E_Name: z.string(),
  A_ID: z.number().int(),
  IsAdmin: z.boolean(),
  role: roleSchema,
  roles: z.array(roleSchema),
  name: z.string(),
  account: z.string(),
  HasChildren: z.boolean(),
});
export type LoginInfo = z.infer<typeof loginInfoSchema>;

/** `POST /api/Account/ChangePassword`: both values travel in the query string (SPEC.md section 7). */
export const changePasswordQuerySchema = z.object({
  OldPassword: z.string().max(128).default(''),
  NewPassword: z.string().max(128).default(''),
});

export const icpSchema = z.object({ ICP: z.string() });
