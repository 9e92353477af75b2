import type { LoginInfo, SysConfigCode, SysConfigEntry } from '@intercom/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getList, getObject } from '../../shared/api/apiClient';
import { useSessionEnded } from '../../shared/api/sessionState';
import { liveHub } from '../../shared/hub/liveHub';
import { clearTokens } from '../../shared/storage/tokenStore';

/** How often an open, visible tab asks who it is, so a replaced session shows up while idle. */
export const SESSION_POLL_MS = 30_000;

export const loginInfoKey = ['Account', 'LoginInfo'] as const;

/**
 * The logged-in account (session state 3 of SPEC.md section 4). The first load reports its own
 * failure (the guard sends the user to /login); later polls open the re-login dialog.
 */
export function useLoginInfo() {
  const ended = useSessionEnded();
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: loginInfoKey,
    queryFn: ({ signal }) => {
      const loaded = queryClient.getQueryData(loginInfoKey) !== undefined;
      return getObject<LoginInfo>('/api/Account/LoginInfo', { signal, sessionDialog: loaded });
    },
    staleTime: SESSION_POLL_MS,
    refetchInterval: ended ? false : SESSION_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: !ended,
    meta: { errorToast: false },
  });
}

export type SysConfig = Partial<Record<SysConfigCode, string>> & Record<string, string | undefined>;

/** System config entries (DefaultMap, SubjectBg, ...) as a Code -> Value map. */
export function useSysConfig(enabled = true) {
  return useQuery({
    enabled,
    queryKey: ['Account', 'SysConfig'],
    queryFn: async ({ signal }) => {
      const { rows } = await getList<SysConfigEntry>('/api/Account/SysConfig', { signal });
      return Object.fromEntries(rows.map((row) => [row.Code, row.Value])) as SysConfig;
    },
    staleTime: 5 * 60_000,
  });
}

/**
 * Log out (SPEC.md 4, "Logout clears token, roles and caches"): ends the session on the server, then
 * forgets the token, closes the hub and empties the live store at once, and stops every request in
 * flight. The cached answers go once the signed-in screens have unmounted (removing them while they
 * still show would make those screens fetch again without a token): the caller navigates to /login
 * and calls `forget` there, before the login page paints.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => apiRequest('POST', '/api/Account/Logout', { sessionDialog: false, connectionToast: false }),
    // Whatever the server said (even "already ended"), this browser is logged out.
    onSettled: async () => {
      clearTokens();
      liveHub.stop();
      await queryClient.cancelQueries();
    },
  });
  const forget = () => queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'UAuth' });
  return { ...mutation, forget };
}

export interface ChangePasswordInput {
  oldPassword: string;
  newPassword: string;
}

/** ChangePassword ends every session of the account on success, this one included. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (input: ChangePasswordInput) =>
      apiRequest('POST', '/api/Account/ChangePassword', {
        query: { OldPassword: input.oldPassword, NewPassword: input.newPassword },
      }),
    onSuccess: () => clearTokens(),
  });
}
