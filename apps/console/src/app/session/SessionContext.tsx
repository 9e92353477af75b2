import type { LoginInfo } from '@intercom/contract';
import { createContext, useContext } from 'react';
import type { SysConfig } from '../../features/account';
import type { ResolvedRoute } from '../routing/AppRoute';

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
