import type { Track } from '@intercom/contract';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { Flex, Statistic, Tooltip } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { TRACK_END_COLOUR, TRACK_START_COLOUR, TRACK_STOP_COLOUR } from '../../map/MapTrack';
import { SPEED_CLASSES } from '../../map/trackFeatures';
import { formatDistance, formatSpan, formatSpeed } from './formatTrack';
import { trackSpeeds } from './trackSpeeds';

function Swatch({ colour, label, round = false }: { colour: string; label: string; round?: boolean }) {
  return (
    <Flex gap={4} align="center">
      <span
        aria-hidden
        style={{ width: round ? 10 : 16, height: round ? 10 : 4, borderRadius: round ? 5 : 2, background: colour }}
      />
      <span>{label}</span>
    </Flex>
  );
}

/**
 * Distance, moving and stopped time, maximum and average speed (one definition, trackSpeeds, told in
 * their tooltip); and what the colours mean.
 */
export function TraceStats({ track }: { track: Track }) {
  const { t } = useTranslation();
  const speeds = useMemo(() => trackSpeeds(track), [track]);
  const definition = t('trace.speed_definition');
  const withHelp = (title: string) => (
    <Tooltip title={definition}>
      <span data-testid="trace-speed-help">
        {title} <QuestionCircleOutlined aria-label={definition} />
      </span>
    </Tooltip>
  );
  const items = [
    { key: 'distance', title: t('trace.distance'), value: formatDistance(t, track.distance) },
    { key: 'moving', title: t('trace.moving_time'), value: formatSpan(t, track.movingMs) },
    { key: 'stopped', title: t('trace.stopped_time'), value: formatSpan(t, track.stoppedMs) },
    { key: 'max', title: withHelp(t('trace.max_speed')), value: formatSpeed(t, speeds.maxSpeed) },
    { key: 'avg', title: withHelp(t('trace.avg_speed')), value: formatSpeed(t, speeds.avgSpeed) },
  ];
  const classes = SPEED_CLASSES.map((c, i) => {
    const low = i === 0 ? 0 : (SPEED_CLASSES[i - 1]?.below ?? 0);
    const label = Number.isFinite(c.below) ? `${low}-${c.below}` : `≥ ${low}`;
    return <Swatch key={c.colour} colour={c.colour} label={label} />;
  });
  return (
    <Flex vertical gap={8} data-testid="trace-stats">
      <Flex gap={24} wrap>
        {items.map((item) => (
          <Statistic key={item.key} title={item.title} value={item.value} styles={{ content: { fontSize: 18 } }} />
        ))}
      </Flex>
      <Flex gap={12} wrap align="center" style={{ fontSize: 12 }} aria-label={t('trace.legend')}>
        <span>{t('trace.speed_legend')}</span>
        {classes}
        <Swatch colour={TRACK_START_COLOUR} label={t('trace.start')} round />
        <Swatch colour={TRACK_END_COLOUR} label={t('trace.end')} round />
        <Swatch colour={TRACK_STOP_COLOUR} label={t('trace.stop')} round />
      </Flex>
    </Flex>
  );
}
