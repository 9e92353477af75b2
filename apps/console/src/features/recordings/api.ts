import type { RecordingRow } from '@intercom/contract';
import { useQuery } from '@tanstack/react-query';
import { apiDownload, getObject } from '../../shared/api/apiClient';
import { entityResource } from '../../shared/list/entityResource';

/** `/api/Recording/QueryData` and `ExportData` (any role): newest first unless the user sorts. */
export const recordingResource = entityResource<RecordingRow>({
  name: 'Recording',
  rowKey: 'R_ID',
  defaultOrder: { field: 'StartAt', desc: true },
});

export interface PlayUrl {
  url: string;
  expiresAt: number;
}

/**
 * A signed play URL for one recording (`GET /api/Media/RecordingUrl/{id}`): an `<audio>` element
 * cannot send the token header. It lives 12 hours and only while this session does, so it is
 * asked anew each time a player opens rather than kept.
 */
export function useRecordingUrl(id: number | undefined) {
  return useQuery({
    enabled: id !== undefined,
    queryKey: ['Recording', 'RecordingUrl', id],
    queryFn: ({ signal }) => getObject<PlayUrl>(`/api/Media/RecordingUrl/${id}`, { signal }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

/** The same URL as an attachment (`?download=1`): the browser saves it instead of playing it. */
export function downloadUrl(playUrl: string): string {
  return `${playUrl}${playUrl.includes('?') ? '&' : '?'}download=1`;
}

/**
 * Asks the server why a play URL did not play: throws its error (file missing, link expired) as
 * an ApiError; resolves when the file is there, so the browser could not decode it.
 */
export async function probePlayUrl(playUrl: string): Promise<void> {
  await apiDownload(playUrl, 'recording.ogg', { connectionToast: false, sessionDialog: false });
}
