import { trackRange, type NotifyRow, type RecordingRow, type Track } from '@intercom/contract';
import { Alert, Card, Empty, Flex, Spin, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { useRunAction } from '../../shared/api/useRunAction';
import { useIsMobile } from '../../shared/ui/useIsMobile';
import { RecordingPlayer } from '../recordings';
import { AlarmDialog } from './AlarmDialog';
import { exportTrack, useAlarms, useSpeech, useTrack, type TraceRequest } from './api';
import { PlaybackBar } from './PlaybackBar';
import { PlaybackClock } from './PlaybackClock';
import { StopCard } from './StopCard';
import { TraceMap } from './TraceMap';
import { dayRange, TraceQueryBar } from './TraceQueryBar';
import { TraceStats } from './TraceStats';
import { TraceTimeline, type TimelineSpan } from './TraceTimeline';
import { useTraceKeys } from './useTraceKeys';

/** `?uid=` (the live map's Track button) or `?U_ID=`, and `?day=YYYY-MM-DD`. */
function useArrival() {
  const [params] = useSearchParams();
  return useMemo(() => {
    const id = Number(params.get('uid') ?? params.get('U_ID'));
    const day = dayjs(params.get('day') ?? '', 'YYYY-MM-DD', true);
    return { userId: Number.isSafeInteger(id) && id > 0 ? id : undefined, day: day.isValid() ? day : undefined };
  }, [params]);
}

/** From the first to the last thing the lanes show: fixes, speech and alarms. */
function extentOf(t: readonly number[], speech: readonly RecordingRow[], alarms: readonly NotifyRow[]): TimelineSpan {
  const times = [t[0] ?? Infinity, t[t.length - 1] ?? -Infinity];
  for (const r of speech) times.push(r.StartAt, r.StartAt + r.Duration);
  for (const a of alarms) times.push(a.CreatedAt);
  return { begin: Math.min(...times), end: Math.max(...times) };
}

/**
 * Track history and replay (/main/trace): a user and a range, the path coloured by speed with its
 * stops, start and end, the stats, a replay that follows time, and one timeline of movement,
 * speech and alarms under the map.
 */
export default function TracePage() {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const errorMessage = useErrorMessage();
  const runAction = useRunAction();
  const arrival = useArrival();
  const [request, setRequest] = useState<TraceRequest | undefined>(() => {
    if (arrival.userId === undefined) return undefined;
    const [from, to] = dayRange(arrival.day);
    return { userId: arrival.userId, from: from.valueOf(), to: to.valueOf() };
  });
  const track = useTrack(request);
  const range = request && { userId: request.userId, ...trackRange({ H_Time1: request.from, H_Time2: request.to }) };
  const lanesFor = track.data && track.data.t.length > 0 ? range : undefined;
  const speech = useSpeech(lanesFor);
  const alarms = useAlarms(lanesFor);
  const [clock] = useState(() => new PlaybackClock());
  const [follow, setFollow] = useState(true);
  // The stop clicked, with the track it belongs to: a new track shows no stale card.
  const [picked, setPicked] = useState<{ track: Track; index: number } | null>(null);
  const [recording, setRecording] = useState<RecordingRow | null>(null);
  const [alarm, setAlarm] = useState<NotifyRow | null>(null);

  const data = track.data;
  const speechRows = useMemo(() => speech.data ?? [], [speech.data]);
  const alarmRows = useMemo(() => alarms.data ?? [], [alarms.data]);
  const span = useMemo(
    () => (data && data.t.length > 0 ? extentOf(data.t, speechRows, alarmRows) : undefined),
    [data, speechRows, alarmRows],
  );

  useEffect(() => {
    if (data && span) clock.load(span.begin, span.end, data.stops);
    else clock.load(0, 0, []);
  }, [clock, data, span]);
  useEffect(() => () => clock.dispose(), [clock]);
  useTraceKeys(clock, span);

  const stopIndex = picked && picked.track === data ? picked.index : null;
  const stop = stopIndex === null ? undefined : data?.stops[stopIndex];
  const mapHeight = mobile ? '55dvh' : 'max(360px, calc(100dvh - 430px))';

  return (
    <Flex vertical gap={12} data-testid="trace-page">
      <TraceQueryBar
        initial={arrival}
        loading={track.isFetching}
        onQuery={(next) => {
          setRequest(next);
          // The same query again asks the server again: new fixes may have arrived.
          if (JSON.stringify(next) === JSON.stringify(request)) void track.refetch();
        }}
        onExport={request && ((format) => void runAction(() => exportTrack(request, format)))}
      />
      {track.isError && (
        <Alert
          type="error"
          showIcon
          role="alert"
          data-testid="trace-error"
          title={t('trace.query_failed', { message: errorMessage(track.error) })}
        />
      )}
      {data && data.t.length === 0 && (
        <Alert type="info" showIcon role="status" data-testid="trace-empty" title={t('trace.no_data_found')} />
      )}
      <div style={{ position: 'relative', height: mapHeight, minHeight: 280, borderRadius: 8, overflow: 'hidden' }}>
        <TraceMap
          track={data}
          clock={clock}
          follow={follow}
          onStopClick={(index) => data && setPicked({ track: data, index })}
          onDrag={() => setFollow(false)}
        />
        {track.isFetching && (
          <Spin style={{ position: 'absolute', top: 12, left: 12 }} aria-label={t('common.loading')} />
        )}
        {stop && request && stopIndex !== null && (
          <div style={{ position: 'absolute', left: 12, bottom: 32 }}>
            <StopCard userId={request.userId} stop={stop} index={stopIndex} onClose={() => setPicked(null)} />
          </div>
        )}
      </div>
      {data && span ? (
        <Card size="small">
          <Flex vertical gap={12}>
            <TraceStats track={data} />
            <PlaybackBar clock={clock} follow={follow} onFollow={setFollow} />
            <TraceTimeline
              span={span}
              track={data}
              speech={speechRows}
              alarms={alarmRows}
              clock={clock}
              onPlaySpeech={setRecording}
              onShowAlarm={setAlarm}
            />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('trace.keys_hint')}
            </Typography.Text>
          </Flex>
        </Card>
      ) : (
        !request && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('trace.pick_hint')} />
      )}
      <RecordingPlayer recording={recording} onClose={() => setRecording(null)} />
      <AlarmDialog alarm={alarm} onClose={() => setAlarm(null)} />
    </Flex>
  );
}
