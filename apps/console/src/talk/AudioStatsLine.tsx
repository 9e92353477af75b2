import { Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { talk as talkClient } from './talk';

/**
 * Browser talk's counters, once a second: packets sent from the microphone and packets heard and
 * decoded. What a supporter asks first when "nobody hears me" (and what the browser tests read).
 */
export function AudioStatsLine() {
  const { t } = useTranslation();
  const [stats, setStats] = useState<{ sent: number; decoded: number } | null>(null);
  useEffect(() => {
    const timer = setInterval(() => void talkClient.audioStats().then(setStats), 1000);
    return () => clearInterval(timer);
  }, []);
  if (!stats) return null;
  return (
    <Typography.Text
      type="secondary"
      style={{ fontSize: 12 }}
      data-testid="talk-audio-stats"
      data-sent={stats.sent}
      data-decoded={stats.decoded}
    >
      {t('talk.audio_stats', { sent: stats.sent, decoded: stats.decoded })}
    </Typography.Text>
  );
}
