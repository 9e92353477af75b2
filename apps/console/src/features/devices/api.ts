import type { DeviceRow, IccidImportReport, MapResult } from '@intercom/contract';
import { apiRequest, type QueryValues } from '../../shared/api/apiClient';
import { useResourceMutation } from '../../shared/api/useResourceMutation';
import { entityResource } from '../../shared/list/entityResource';
import { useEntity } from '../../shared/api/useEntity';

/**
 * Devices and SIM cards: pages from `GET /api/UserInfo/QueryDeviceData` (SPEC.md section 7),
 * export from `/api/Device/ExportData`, Save and Delete on `/api/Device`.
 */
export const deviceResource = entityResource<DeviceRow>({
  name: 'Device',
  rowKey: 'D_ID',
  defaultOrder: { field: 'D_ID', desc: false },
  queryPath: '/api/UserInfo/QueryDeviceData',
});

/** A SIM mapped, unmapped or changed touches the users (their ICCID) and the inventory. */
const DEVICE_RESOURCES = ['Device', 'UserInfo', 'Organ'];

function useDeviceMutation<I, R>(call: (input: I) => Promise<R>) {
  return useResourceMutation(call, DEVICE_RESOURCES);
}

export function useDevice(id: number | undefined) {
  return useEntity<DeviceRow>('Device', id);
}

export function useSaveDevice() {
  return useDeviceMutation((form: QueryValues) => apiRequest<never, DeviceRow>('POST', '/api/Device/Save', { form }));
}

export function useDeleteDevice() {
  return useDeviceMutation((id: number) => apiRequest('DELETE', `/api/Device/Delete/${id}`));
}

/** Uploads take longer than ordinary calls on a slow line. */
const UPLOAD_TIMEOUT_MS = 120_000;

/**
 * `POST /api/UserInfo/ImportICCID?fileName=`: the file's bytes as they are, text/plain (the
 * server checks the encoding itself, so the browser must not decode it first).
 */
export function useImportIccids() {
  return useDeviceMutation(async (file: File) => {
    const answer = await apiRequest<never, IccidImportReport>('POST', '/api/UserInfo/ImportICCID', {
      query: { fileName: file.name },
      raw: { body: file, contentType: 'text/plain' },
      timeoutMs: UPLOAD_TIMEOUT_MS,
    });
    return answer.BaseData;
  });
}

async function mapCall(path: string, json: unknown): Promise<MapResult | undefined> {
  const answer = await apiRequest<never, MapResult>('POST', path, { json, timeoutMs: UPLOAD_TIMEOUT_MS });
  return answer.BaseData;
}

/** `MapICCID`: one ICCID onto one user (its previous SIM returns to the inventory). */
export function useMapIccid() {
  return useDeviceMutation((input: { ICCID: string; UserID: number }) => mapCall('/api/UserInfo/MapICCID', input));
}

/** `FastMapICCID`: ICCIDs in order onto the users without a SIM (of one department, if given), oldest first. */
export function useFastMapIccids() {
  return useDeviceMutation((input: { ICCIDs: string[]; OS_ID?: number }) =>
    mapCall('/api/UserInfo/FastMapICCID', input),
  );
}

/** `NoneSeriesMap`: explicit ICCID / phone pairs. */
export function usePairsMap() {
  return useDeviceMutation((input: { pairs: { ICCID: string; MobilePhone: string }[] }) =>
    mapCall('/api/UserInfo/NoneSeriesMap', input),
  );
}

/** `RecoverDevice`: unbind the user's SIM and reset its terminal settings (its sessions end). */
export function useRecoverDevice() {
  return useDeviceMutation((MobilePhone: string) =>
    apiRequest('POST', '/api/UserInfo/RecoverDevice', { form: { MobilePhone } }),
  );
}
