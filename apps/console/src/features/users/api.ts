import type { CreatedUsers, UserRow } from '@intercom/contract';
import { apiRequest, type QueryValues } from '../../shared/api/apiClient';
import { useResourceMutation } from '../../shared/api/useResourceMutation';
import { entityResource } from '../../shared/list/entityResource';

/** `/api/UserInfo/QueryData` and `ExportData`: terminal users, oldest first unless sorted. */
export const userResource = entityResource<UserRow>({
  name: 'UserInfo',
  rowKey: 'UserID',
  defaultOrder: { field: 'UserID', desc: false },
});

/**
 * What a change of users touches: the list, the tree's user counts, devices (a user's SIM),
 * enterprises (licences left) and the dashboard's statistics.
 */
const USER_RESOURCES = ['UserInfo', 'Organ', 'Device', 'Enterprise'];

function useUserMutation<I, R = unknown>(call: (input: I) => Promise<R>) {
  return useResourceMutation(call, USER_RESOURCES);
}

/** `POST /api/UserInfo/UpdateUser` (form): UserID 0 creates; absent fields of an edit stay as they are. */
export function useSaveUser() {
  return useUserMutation((form: QueryValues) =>
    apiRequest<never, UserRow>('POST', '/api/UserInfo/UpdateUser', { form }),
  );
}

/** `POST /api/UserInfo/FreezeUser`: freezing also ends the terminal's sessions. */
export function useFreezeUser() {
  return useUserMutation((input: { MobilePhone: string; isLock: boolean }) =>
    apiRequest('POST', '/api/UserInfo/FreezeUser', { form: input }),
  );
}

/** `POST /api/UserInfo/UCapsSwitch`: `cap` is the user's whole new capability mask. */
export function useCapsSwitch() {
  return useUserMutation((input: { phone: string; cap: number }) =>
    apiRequest<never, { UserID: number; MobilePhone: string; Caps: number }>('POST', '/api/UserInfo/UCapsSwitch', {
      form: input,
    }),
  );
}

/** `POST /api/UserInfo/SaveLocationConfig`: one user's GPS parameter ('' follows the enterprise). */
export function useSaveUserLocation() {
  return useUserMutation((input: { uid: number; phoneNumber: string; scValue: string }) =>
    apiRequest('POST', '/api/UserInfo/SaveLocationConfig', { form: input }),
  );
}

/** `POST /api/UserInfo/BChangeUser`: priority and/or department of several users at once. */
export function useBatchChangeUsers() {
  return useUserMutation((input: { uids: number[]; priValue?: number; mValue?: number }) =>
    apiRequest<never, { changed: number }>('POST', '/api/UserInfo/BChangeUser', {
      form: { uids: input.uids.join(','), priValue: input.priValue, mValue: input.mValue },
    }),
  );
}

/** A batch may take a while (one password hash, up to 99 rows): more than the usual 10 s. */
const CREATE_TIMEOUT_MS = 60_000;

/** Creates users all or none: numbered from a prefix (`BatchAdd`) or row by row (`ListAdd`). */
function useCreateUsers(path: '/api/UserInfo/BatchAdd' | '/api/UserInfo/ListAdd') {
  return useUserMutation(async (body: Record<string, unknown>) => {
    const answer = await apiRequest<never, CreatedUsers>('POST', path, { json: body, timeoutMs: CREATE_TIMEOUT_MS });
    return answer.BaseData;
  });
}

export function useBatchAddUsers() {
  return useCreateUsers('/api/UserInfo/BatchAdd');
}

export function useListAddUsers() {
  return useCreateUsers('/api/UserInfo/ListAdd');
}
