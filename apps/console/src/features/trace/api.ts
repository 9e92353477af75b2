import type { NotifyRow, RecordingRow, Track } from '@intercom/contract';
import { useQuery } from '@tanstack/react-query';
import { apiDownload, getList, getObject } from '../../shared/api/apiClient';
import { saveFile } from '../../shared/api/saveFile';

/** What the page asks for: a user and a range (epoch ms; the server fills a missing bound). */
export interface TraceRequest {
  userId: number;
  from?: number;
  to?: number;
}

/** A week of 1 Hz fixes is several MB: more than the 10 s of an ordinary call on a slow link. */
const TRACK_TIMEOUT_MS = 60_000;
/** Speech and alarms of one user in at most 7 days: the API's page limit is plenty. */
const LANE_PAGE = 500;

const rangeQuery = (r: TraceRequest) => ({ U_ID: r.userId, H_Time1: r.from, H_Time2: r.to });

/** `GET /api/GISLocation/Track`: the whole track at once, merged and measured by the server. */
export function useTrack(request: TraceRequest | undefined) {
  return useQuery({
    enabled: request !== undefined,
    queryKey: ['GISLocation', 'Track', request],
    queryFn: ({ signal }) =>
      getObject<Track>('/api/GISLocation/Track', {
        query: rangeQuery(request as TraceRequest),
        signal,
        timeoutMs: TRACK_TIMEOUT_MS,
      }),
    staleTime: 60_000,
    // Comparing half a million numbers with the previous answer costs more than it saves, and
    // a new answer should redraw.
    structuralSharing: false,
    // The page says "trace query failed" with the server's message itself.
    meta: { errorToast: false },
  });
}

/** The range the server answered for, so the lanes ask for the same one. */
export interface TraceSpan {
  userId: number;
  from: number;
  to: number;
}

const between = (span: TraceSpan, field: string) =>
  JSON.stringify({ U_ID: span.userId, [field]: { between: [span.from, span.to] } });

/** Rows of `entity` for the user whose `timeField` falls in the span, oldest first. */
function useLane<T>(entity: string, timeField: string, span: TraceSpan | undefined) {
  return useQuery({
    enabled: span !== undefined,
    queryKey: [entity, 'QueryData', { trace: span }],
    queryFn: async ({ signal }) =>
      (
        await getList<T>(`/api/${entity}/QueryData`, {
          query: { jsonCondition: between(span as TraceSpan, timeField), pageSize: LANE_PAGE, orderField: timeField },
          signal,
        })
      ).rows,
    staleTime: 60_000,
  });
}

/** The user's recordings (speech bursts) that began in the span. */
export const useSpeech = (span: TraceSpan | undefined) => useLane<RecordingRow>('Recording', 'StartAt', span);

/** The user's alarms raised in the span. */
export const useAlarms = (span: TraceSpan | undefined) => useLane<NotifyRow>('Notification', 'CreatedAt', span);

/** Downloads the track as GPX or CSV, times in this browser's zone. */
export async function exportTrack(request: TraceRequest, format: 'gpx' | 'csv') {
  const file = await apiDownload('/api/GISLocation/ExportTrack', `track.${format}`, {
    query: { ...rangeQuery(request), format, utcOffset: -new Date().getTimezoneOffset() },
    timeoutMs: TRACK_TIMEOUT_MS,
  });
  saveFile(file.blob, file.fileName);
}
