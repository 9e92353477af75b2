import type {
  GisTypeRow,
  ImageKind,
  LocationProfileRow,
  LocrptSet,
  SysConfigCode,
  UploadImageResult,
  UserTypeWithStates,
} from '@intercom/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, isApiError } from '../../shared/api/ApiError';
import { apiRequest, getList, getObject } from '../../shared/api/apiClient';
import { invalidateResources } from '../../shared/api/invalidate';
import { useResourceMutation } from '../../shared/api/useResourceMutation';

/**
 * The settings the sidebar, the login page and the route table read (`['Account', 'SysConfig']`,
 * see features/account/api.ts): refreshed after every change here, so the menu and the brand follow
 * without a reload.
 */
function useRefreshSettings() {
  const queryClient = useQueryClient();
  return () => invalidateResources(queryClient, 'Account', 'SysLog');
}

export interface ConfigChange {
  code: SysConfigCode;
  value: string;
}

/**
 * Saves changed config entries one `ModifyConfig` call each, in order. A refused value is thrown
 * with its field named after the entry's code, so the form shows it under that field.
 */
export function useModifyConfig() {
  const refresh = useRefreshSettings();
  return useMutation({
    mutationFn: async (changes: ConfigChange[]) => {
      for (const { code, value } of changes) {
        try {
          await apiRequest('POST', '/api/Account/ModifyConfig', { form: { scCode: code, scValue: value } });
        } catch (error) {
          if (!isApiError(error) || error.fields.length === 0) throw error;
          throw new ApiError({
            kind: error.kind,
            code: error.code,
            key: error.key,
            params: error.params,
            status: error.status,
            requestId: error.requestId,
            fields: error.fields.map((field) => ({ ...field, field: code })),
          });
        }
      }
    },
    // Earlier entries may have been saved before a later one failed: refresh either way.
    onSettled: refresh,
  });
}

export interface UploadImageInput {
  kind: ImageKind;
  file: File;
}

/** `POST /api/Media/UploadImage?fileName=&kind=`: the raw file as the body; the server decides its type. */
export function useUploadImage() {
  const refresh = useRefreshSettings();
  return useMutation({
    mutationFn: async ({ kind, file }: UploadImageInput) => {
      const answer = await apiRequest<never, UploadImageResult>('POST', '/api/Media/UploadImage', {
        query: { fileName: file.name, kind },
        raw: { body: file, contentType: file.type.startsWith('image/') ? file.type : 'application/octet-stream' },
      });
      return answer.BaseData;
    },
    onSuccess: refresh,
  });
}

/** The named location-report profiles of an enterprise, the current one first. */
export function useLocationProfiles(enterpriseId: number | undefined) {
  return useQuery({
    enabled: enterpriseId !== undefined,
    queryKey: ['Enterprise', 'GetLocationConfig', { eid: enterpriseId }],
    queryFn: async ({ signal }) =>
      (await getList<LocationProfileRow>(`/api/Enterprise/GetLocationConfig/${enterpriseId}`, { signal })).rows,
    staleTime: 0,
  });
}

/** What the terminals of an enterprise report with now (the current profile or the default). */
export function useLocrptSet(enterpriseId: number | undefined) {
  return useQuery({
    enabled: enterpriseId !== undefined,
    queryKey: ['Enterprise', 'LocrptSet', { eid: enterpriseId }],
    queryFn: ({ signal }) => getObject<LocrptSet>(`/api/Enterprise/LocrptSet/${enterpriseId}`, { signal }),
    staleTime: 0,
  });
}

function useLocationMutation<I>(call: (input: I) => Promise<unknown>) {
  return useResourceMutation(call, ['Enterprise', 'SysLog']);
}

export interface SaveLocationInput {
  scID?: number;
  eid: number;
  scName: string;
  scValue: string;
}

/** Creates (no scID) or edits a profile. */
export function useSaveLocationProfile() {
  return useLocationMutation((form: SaveLocationInput) =>
    apiRequest('POST', '/api/Enterprise/SaveLocationConfig', { form: { ...form } }),
  );
}

export function useSetCurrentLocationProfile() {
  return useLocationMutation((scID: number) =>
    apiRequest('POST', '/api/Enterprise/SaveCurrentLocationConfig', { form: { scID } }),
  );
}

export function useDeleteLocationProfile() {
  return useLocationMutation((scID: number) => apiRequest('DELETE', `/api/Enterprise/DeleteLocationConfig/${scID}`));
}

/** Marked-point or line types of the working enterprise (the server stores the defaults on first use). */
export function useGisTypes(kind: 'GISPoint' | 'GISLine') {
  return useQuery({
    queryKey: [kind, 'GetMyType', {}],
    queryFn: async ({ signal }) => (await getList<GisTypeRow>(`/api/${kind}/GetMyType`, { signal })).rows,
    staleTime: 60_000,
  });
}

/** User types with their state icons resolved (defaults filled in by the server). */
export function useUserTypeIcons() {
  return useQuery({
    queryKey: ['GISUser', 'GetMyType', {}],
    queryFn: async ({ signal }) => (await getList<UserTypeWithStates>('/api/GISUser/GetMyType', { signal })).rows,
    staleTime: 60_000,
  });
}
