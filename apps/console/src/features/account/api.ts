import type { SysConfigEntry } from '@intercom/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getList } from '../../shared/api/apiClient';
import { useSessionEnded } from '../../shared/api/sessionState';
import { liveHub } from '../../shared/hub/liveHub';
import { clearTokens } from '../../shared/storage/tokenStore';
import { fetchLoginInfo, loginInfoKey, SESSION_POLL_MS } from '../../shared/api/loginInfoQuery';
import type { SysConfig } from '../../shared/session/SessionContext';

export { loginInfoKey };

/**
 * The logged-in account (session state 3 of SPEC.md section 4). The first load reports its own
 * failure (the guard sends the user to /login); later polls open the re-login dialog.
 */
export function useLoginInfo() {
  const ended = useSessionEnded();
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: loginInfoKey,
    queryFn: ({ signal }) => fetchLoginInfo(queryClient, signal),
    staleTime: SESSION_POLL_MS,
    refetchInterval: ended ? false : SESSION_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: !ended,
    meta: { errorToast: false },
  });
}

/** System config entries (DefaultMap, SubjectBg, ...) as a Code -> Value map. */
export function useSysConfig(enabled = true) {
  return useQuery({
    enabled,
    queryKey: ['Account', 'SysConfig'],
    queryFn: async ({ signal }): Promise<SysConfig> => {
      const { rows } = await getList<SysConfigEntry>('/api/Account/SysConfig', { signal });
      return Object.fromEntries(rows.map((row) => [row.Code, row.Value]));
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
