import {
  BackwardOutlined,
  BorderOutlined,
  CaretRightOutlined,
  ForwardOutlined,
  PauseOutlined,
} from '@ant-design/icons';
import { Button, Flex, Switch, Tag, Tooltip } from 'antd';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format/formatDateTime';
import { PLAYBACK_SPEEDS, speedLabel, type PlaybackClock } from './PlaybackClock';

export interface PlaybackBarProps {
  clock: PlaybackClock;
  follow: boolean;
  onFollow: (on: boolean) => void;
}

/** The replay's clock as text, re-rendered alone each frame. */
function ReplayTime({ clock }: { clock: PlaybackClock }) {
  const time = useSyncExternalStore(clock.subscribe, () => clock.get().time);
  return (
    <span data-testid="trace-time" style={{ fontVariantNumeric: 'tabular-nums' }}>
      {formatDateTime(time, 'second')}
    </span>
  );
}

/**
 * Start, pause, continue, stop; slower and faster through 1/8x..64x, the speed shown as a
 * multiple or fraction (SPEC.md section 2); skip stops; follow.
 */
export function PlaybackBar({ clock, follow, onFollow }: PlaybackBarProps) {
  const { t } = useTranslation();
  const state = useSyncExternalStore(clock.subscribe, () => clock.get().state);
  const speedIndex = useSyncExternalStore(clock.subscribe, () => clock.get().speedIndex);
  const skipStops = useSyncExternalStore(clock.subscribe, () => clock.get().skipStops);
  const playLabel =
    state === 'playing' ? t('trace.pause') : state === 'paused' ? t('trace.continue') : t('trace.start_play');
  return (
    <Flex gap={8} align="center" wrap data-testid="trace-playback">
      <Button
        type="primary"
        icon={state === 'playing' ? <PauseOutlined /> : <CaretRightOutlined />}
        onClick={() => clock.toggle()}
      >
        {playLabel}
      </Button>
      <Button icon={<BorderOutlined />} onClick={() => clock.stop()} disabled={state === 'stopped'}>
        {t('trace.stop_play')}
      </Button>
      <Tooltip title={t('trace.slower')}>
        <Button
          icon={<BackwardOutlined />}
          aria-label={t('trace.slower')}
          onClick={() => clock.changeSpeed(-1)}
          disabled={speedIndex === 0}
        />
      </Tooltip>
      <Tag
        style={{ minWidth: 44, textAlign: 'center', marginInlineEnd: 0 }}
        data-testid="trace-speed"
        aria-live="polite"
      >
        {speedLabel(PLAYBACK_SPEEDS[speedIndex] as number)}
      </Tag>
      <Tooltip title={t('trace.faster')}>
        <Button
          icon={<ForwardOutlined />}
          aria-label={t('trace.faster')}
          onClick={() => clock.changeSpeed(1)}
          disabled={speedIndex === PLAYBACK_SPEEDS.length - 1}
        />
      </Tooltip>
      <ReplayTime clock={clock} />
      <Flex gap={6} align="center">
        <Switch
          size="small"
          checked={skipStops}
          onChange={(on) => clock.setSkipStops(on)}
          aria-label={t('trace.skip_stops')}
        />
        <span>{t('trace.skip_stops')}</span>
      </Flex>
      <Flex gap={6} align="center">
        <Switch size="small" checked={follow} onChange={onFollow} aria-label={t('trace.follow')} />
        <span>{t('trace.follow')}</span>
      </Flex>
    </Flex>
  );
}
