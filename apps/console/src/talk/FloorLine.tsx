import { Badge, Flex, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FloorState } from './talkTypes';

function useSecondsSince(since: number, running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setNow(Date.now()), 500);
    return () => window.clearInterval(timer);
  }, [running]);
  return Math.max(0, Math.floor(((running ? now : since) - since) / 1000));
}

/** One floor: who holds it and for how long ("Patrol 7 speaking · 0:04"), or idle. */
export function FloorLine({ floor, name, current }: { floor: FloorState; name: string; current: boolean }) {
  const { t } = useTranslation();
  const seconds = useSecondsSince(floor.since, floor.holder !== null);
  const duration = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  const holder = floor.holder;
  return (
    <Flex justify="space-between" align="center" gap={8} data-testid={`talk-floor-${floor.cid}`}>
      <Typography.Text strong={current} ellipsis style={{ minWidth: 0 }}>
        {name}
      </Typography.Text>
      {holder ? (
        <Badge
          status={floor.mine ? 'error' : 'processing'}
          text={
            floor.mine
              ? t('talk.you_speaking', { duration })
              : t('talk.status.user_speaking_named', { name: holder.name, duration })
          }
        />
      ) : (
        <Badge status="default" text={t('talk.status.idle')} />
      )}
    </Flex>
  );
}
