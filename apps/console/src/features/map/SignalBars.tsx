import { useTranslation } from 'react-i18next';

const BARS = 4;

/** Signal strength as four bars (like a phone's), with the percentage for screen readers. */
export function SignalBars({ percent }: { percent: number | null }) {
  const { t } = useTranslation();
  const lit = percent === null ? 0 : Math.ceil((percent / 100) * BARS);
  const label = percent === null ? t('map.unknown') : t('map.signal_value', { value: percent });
  return (
    <span role="img" aria-label={label} title={label} data-testid="map-card-signal" data-bars={lit}>
      <svg width={20} height={14} viewBox="0 0 20 14" aria-hidden>
        {Array.from({ length: BARS }, (_, i) => (
          <rect
            key={i}
            x={i * 5}
            y={14 - (i + 1) * 3.5}
            width={3.5}
            height={(i + 1) * 3.5}
            rx={0.5}
            fill={i < lit ? '#1677ff' : '#d9d9d9'}
          />
        ))}
      </svg>{' '}
      {percent === null ? '-' : `${percent}%`}
    </span>
  );
}
