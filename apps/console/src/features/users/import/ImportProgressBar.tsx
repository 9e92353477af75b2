import type { UserImportPhase } from '@intercom/contract';
import { Flex, Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useImportProgress } from './api';

/** Stages whose work is counted (`done` of `total`); the others show a bar without a figure. */
const COUNTED: readonly UserImportPhase[] = ['check', 'hash', 'write'];

/**
 * How far a running import is, as the server tells it (GET /api/UserInfo/ImportProgress): the
 * stage, the rows or passwords done of all, a bar, and the seconds since it began.
 */
export function ImportProgressBar({
  importId,
  dryRun,
  seconds,
}: {
  importId: string;
  dryRun: boolean;
  seconds: number;
}) {
  const { t, i18n } = useTranslation();
  const { data } = useImportProgress(importId);
  const phase = data?.phase ?? 'pending';
  const counted = data !== undefined && COUNTED.includes(phase) && data.total > 0;
  const percent = counted ? Math.min(100, Math.floor((100 * data.done) / data.total)) : 100;
  const number = (value: number) => value.toLocaleString(i18n.language);
  return (
    <Flex vertical gap={4} role="status" aria-live="polite" data-testid="user-import-progress" data-phase={phase}>
      <Typography.Text>
        {dryRun ? t('userImport.checking', { seconds }) : t('userImport.importing', { seconds })}
      </Typography.Text>
      <Typography.Text type="secondary" data-testid="user-import-progress-stage">
        {t(`userImport.phase.${phase}`, { done: number(data?.done ?? 0), total: number(data?.total ?? 0) })}
      </Typography.Text>
      <Progress percent={percent} status="active" showInfo={counted} />
    </Flex>
  );
}
