import type { Role } from '@intercom/contract';
import type { Scope } from '../tenancy/scope.js';
import type { ActiveSession } from './sessions.js';

/** The caller of an authenticated request, with the tenancy scope every repository call takes. */
export interface AuthContext {
  session: ActiveSession;
  account: { A_ID: number; E_ID: number; LoginName: string; Name: string; Role: Role };
  scope: Scope;
}
