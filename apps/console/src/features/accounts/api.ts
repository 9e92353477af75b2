import type { ConsoleAccountRow, Profile } from '@intercom/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getObject, type QueryValues } from '../../shared/api/apiClient';
import { useResourceMutation } from '../../shared/api/useResourceMutation';
import { entityResource } from '../../shared/list/entityResource';
import { loginInfoKey } from '../account';
import { useEntity } from '../../shared/api/useEntity';

/** `/api/Account/QueryData` (admin): the console accounts of the scope. */
export const accountResource = entityResource<ConsoleAccountRow>({
  name: 'Account',
  rowKey: 'A_ID',
  defaultOrder: { field: 'A_ID', desc: false },
});

function useAccountMutation<I, R>(call: (input: I) => Promise<R>) {
  return useResourceMutation(call, ['Account', 'SysLog']);
}

export function useConsoleAccount(id: number | undefined) {
  return useEntity<ConsoleAccountRow>('Account', id);
}

/** `POST /api/Account/Save` (form): A_ID 0 creates; the last admin cannot be demoted (4009). */
export function useSaveAccount() {
  return useAccountMutation((form: QueryValues) => apiRequest('POST', '/api/Account/Save', { form }));
}

/** `POST /api/Account/Disable`: disabling ends the account's sessions. */
export function useDisableAccount() {
  return useAccountMutation((input: { A_ID: number; Disabled: boolean }) =>
    apiRequest('POST', '/api/Account/Disable', { form: input }),
  );
}

export function useResetAccountPassword() {
  return useAccountMutation((input: { A_ID: number; Password: string }) =>
    apiRequest('POST', '/api/Account/ResetPassword', { form: input }),
  );
}

export function useDeleteAccount() {
  return useAccountMutation((id: number) => apiRequest('DELETE', `/api/Account/Delete/${id}`));
}

const profileKey = ['Account', 'Profile'] as const;

/** The own account's name and mail (any role). */
export function useProfile() {
  return useQuery({
    queryKey: profileKey,
    queryFn: ({ signal }) => getObject<Profile>('/api/Account/Profile', { signal }),
    staleTime: 0,
  });
}

/** Saves the own name and mail; the top bar shows the new name at once. */
export function useSaveProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { Name: string; Mail: string }) =>
      apiRequest<never, Profile>('POST', '/api/Account/SaveProfile', { form: input }),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: profileKey }),
        queryClient.invalidateQueries({ queryKey: loginInfoKey }),
      ]);
    },
  });
}
