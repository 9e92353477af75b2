import type { NotifyRow, RecordingRow, Track } from '@intercom/contract';
import { Flex, theme } from 'antd';
import dayjs from 'dayjs';
import {
  useRef,
  useSyncExternalStore,
  type CSSProperties,
  type PointerEvent as ReactPointerEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { TRACK_STOP_COLOUR } from '../../map/MapTrack';
import { useIsMobile } from '../../shared/ui/useIsMobile';
import { formatDateTime } from '../../shared/format/formatDateTime';
import { formatSpan } from './formatTrack';
import type { PlaybackClock } from './PlaybackClock';

export interface TimelineSpan {
  begin: number;
  end: number;
}

export interface TraceTimelineProps {
  span: TimelineSpan;
  track: Track;
  speech: readonly RecordingRow[];
  alarms: readonly NotifyRow[];
  clock: PlaybackClock;
  onPlaySpeech: (recording: RecordingRow) => void;
  onShowAlarm: (alarm: NotifyRow) => void;
}

const LABEL_WIDTH = 76;
const LANE_HEIGHT = 22;

/** Left offset and width of [begin, end] in percent of the span. */
function place(span: TimelineSpan, begin: number, end = begin): { left: string; width: string } {
  const total = Math.max(1, span.end - span.begin);
  const left = ((begin - span.begin) / total) * 100;
  const width = ((Math.max(end, begin) - begin) / total) * 100;
  return { left: `${left}%`, width: `${width}%` };
}

function Playhead({ clock, span }: { clock: PlaybackClock; span: TimelineSpan }) {
  const { token } = theme.useToken();
  const time = useSyncExternalStore(clock.subscribe, () => clock.get().time);
  return (
    <div
      data-testid="trace-playhead"
      data-time={time}
      style={{
        position: 'absolute',
        top: 0,
        bottom: 0,
        left: place(span, time).left,
        width: 2,
        marginLeft: -1,
        background: token.colorError,
        pointerEvents: 'none',
      }}
    />
  );
}

function Lane({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <Flex align="center" style={{ height: LANE_HEIGHT }}>
      <span style={{ width: LABEL_WIDTH, flex: 'none', fontSize: 12 }}>{label}</span>
      <div data-testid={testId} style={{ position: 'relative', flex: 1, height: '100%' }}>
        {children}
      </div>
    </Flex>
  );
}

/** A mark on a lane that does something when clicked: a speech burst, an alarm. */
function LaneButton({
  label,
  title,
  onClick,
  style,
}: {
  label: string;
  title?: string;
  onClick: () => void;
  style: CSSProperties;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={title}
      onClick={onClick}
      style={{ padding: 0, cursor: 'pointer', ...style }}
    />
  );
}

/**
 * One timeline under the map with three lanes: movement (stops and "no data" gaps marked), the
 * user's speech bursts (click to play) and alarms (click to see). A click or drag anywhere on it
 * seeks the replay. Only the playhead follows the clock.
 */
export function TraceTimeline({ span, track, speech, alarms, clock, onPlaySpeech, onShowAlarm }: TraceTimelineProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  // Fewer time labels on a phone, so they never run into each other.
  const tickCount = useIsMobile() ? 3 : 6;
  const area = useRef<HTMLDivElement>(null);
  /** Where the pointer went down, while it is down. */
  const pressed = useRef<number | null>(null);

  const seekTo = (clientX: number) => {
    const box = area.current?.getBoundingClientRect();
    if (!box || box.width <= 0) return;
    const f = Math.min(1, Math.max(0, (clientX - box.left - LABEL_WIDTH) / (box.width - LABEL_WIDTH)));
    clock.seek(span.begin + f * (span.end - span.begin));
  };
  const down = (event: ReactPointerEvent<HTMLDivElement>) => {
    pressed.current = event.clientX;
    seekTo(event.clientX);
  };
  // The pointer is captured only once it drags: captured at once, a click on a speech burst
  // or an alarm would land on the timeline instead of the button.
  const move = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (pressed.current === null) return;
    if (Math.abs(event.clientX - pressed.current) > 3 && !event.currentTarget.hasPointerCapture(event.pointerId)) {
      event.currentTarget.setPointerCapture(event.pointerId);
    }
    seekTo(event.clientX);
  };
  const up = () => {
    pressed.current = null;
  };

  const first = track.t[0];
  const last = track.t[track.t.length - 1];
  const ticks = Array.from({ length: tickCount + 1 }, (_, i) => span.begin + ((span.end - span.begin) * i) / tickCount);
  const multiDay = !dayjs(span.begin).isSame(span.end, 'day');
  const block = { position: 'absolute', top: 3, bottom: 3 } as const;

  return (
    <div
      ref={area}
      role="group"
      aria-label={t('trace.timeline')}
      data-testid="trace-timeline"
      onPointerDown={down}
      onPointerMove={move}
      onPointerUp={up}
      onPointerCancel={up}
      style={{ position: 'relative', userSelect: 'none', touchAction: 'none', cursor: 'pointer', paddingTop: 2 }}
    >
      <Lane label={t('trace.lane_movement')} testId="trace-lane-movement">
        {first !== undefined && last !== undefined && (
          <div
            style={{ ...block, ...place(span, first, last), background: token.colorPrimaryBorder, borderRadius: 2 }}
          />
        )}
        {track.stops.map((stop) => (
          <div
            key={stop.begin}
            title={`${t('trace.stop')} ${formatDateTime(stop.begin)} · ${formatSpan(t, stop.end - stop.begin)}`}
            style={{ ...block, ...place(span, stop.begin, stop.end), minWidth: 2, background: TRACK_STOP_COLOUR }}
          />
        ))}
        {track.gaps.map((gap) => (
          <div
            key={gap.begin}
            title={t('trace.no_data')}
            data-testid="trace-gap"
            style={{
              ...block,
              ...place(span, gap.begin, gap.end),
              background: `repeating-linear-gradient(45deg, ${token.colorBorder} 0 4px, transparent 4px 8px)`,
            }}
          />
        ))}
      </Lane>
      <Lane label={t('trace.lane_speech')} testId="trace-lane-speech">
        {speech.map((recording) => (
          <LaneButton
            key={recording.R_ID}
            label={t('trace.play_speech', { time: formatDateTime(recording.StartAt, 'second') })}
            title={`${formatDateTime(recording.StartAt, 'second')} · ${formatSpan(t, recording.Duration)}`}
            onClick={() => onPlaySpeech(recording)}
            style={{
              ...block,
              ...place(span, recording.StartAt, recording.StartAt + recording.Duration),
              minWidth: 6,
              border: 'none',
              borderRadius: 2,
              background: token.colorSuccess,
            }}
          />
        ))}
      </Lane>
      <Lane label={t('trace.lane_alarms')} testId="trace-lane-alarms">
        {alarms.map((alarm) => (
          <LaneButton
            key={alarm.N_ID}
            label={t('trace.show_alarm', { time: formatDateTime(alarm.CreatedAt, 'second') })}
            onClick={() => onShowAlarm(alarm)}
            style={{
              position: 'absolute',
              top: 4,
              left: place(span, alarm.CreatedAt).left,
              width: 12,
              height: 12,
              marginLeft: -6,
              border: '2px solid #fff',
              borderRadius: 6,
              background: token.colorError,
            }}
          />
        ))}
      </Lane>
      <Flex
        style={{
          marginLeft: LABEL_WIDTH,
          position: 'relative',
          height: 18,
          fontSize: 11,
          color: token.colorTextSecondary,
        }}
      >
        {ticks.map((tick, i) => (
          <span
            key={tick}
            style={{
              position: 'absolute',
              left: place(span, tick).left,
              transform: i === 0 ? 'none' : i === tickCount ? 'translateX(-100%)' : 'translateX(-50%)',
              whiteSpace: 'nowrap',
            }}
          >
            {dayjs(tick).format(multiDay ? 'MM-DD HH:mm' : 'HH:mm')}
          </span>
        ))}
      </Flex>
      <div style={{ position: 'absolute', top: 0, bottom: 18, left: LABEL_WIDTH, right: 0, pointerEvents: 'none' }}>
        <Playhead clock={clock} span={span} />
      </div>
    </div>
  );
}
