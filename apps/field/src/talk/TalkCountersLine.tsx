import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldTalk, TalkCounters } from './FieldTalk';

/** How long after a talk the counters are read once more (the last frames' decode). */
const SETTLE_MS = 1500;

/**
 * Packets sent, frames heard and packets played: what a supporter asks first when "nobody hears me"
 * (and what the browser tests read). Read once a second only while someone talks, then once more:
 * an idle radio runs no timer for it.
 */
export function TalkCountersLine({ talk, active }: { talk: FieldTalk; active: boolean }) {
  const { t } = useTranslation('talk');
  const [counters, setCounters] = useState<TalkCounters>(() => talk.counters());
  useEffect(() => {
    const read = () => setCounters(talk.counters());
    read();
    if (!active) {
      const settle = setTimeout(read, SETTLE_MS);
      return () => clearTimeout(settle);
    }
    const timer = setInterval(read, 1000);
    return () => clearInterval(timer);
  }, [talk, active]);
  return (
    <p
      className="talk__counters"
      data-testid="talk-audio-stats"
      data-sent={counters.sent}
      data-received={counters.received}
      data-decoded={counters.decoded}
    >
      {t('audioStats', { ...counters })}
    </p>
  );
}
