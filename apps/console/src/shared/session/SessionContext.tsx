import type { LoginInfo, SysConfigCode } from '@intercom/contract';
import { createContext, useContext } from 'react';
import type { ResolvedRoute } from '../routing/AppRoute';

/** The enterprise's system settings (DefaultMap, SubjectBg, ...) as a Code -> Value map. */
export type SysConfig = Partial<Record<SysConfigCode, string>> & Record<string, string | undefined>;

/** Session state 4 of SPEC.md section 4: the account is known and its routes are generated. */
export interface Session {
  info: LoginInfo;
  sysConfig: SysConfig | undefined;
  routes: ResolvedRoute[];
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in screen');
  return session;
}
