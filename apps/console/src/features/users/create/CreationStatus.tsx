import { MessageKeys, type CreatedUsers } from '@intercom/contract';
import { Alert, Button, Flex, Progress, Result, Table, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/ApiError';
import { useErrorMessage } from '../../../shared/api/useErrorMessage';

export type Creation =
  | { state: 'idle' }
  | { state: 'running'; count: number; startedAt: number }
  | { state: 'done'; result: CreatedUsers }
  | { state: 'failed'; error: unknown };

/** Seconds since `startedAt`, ticking while shown. */
function useElapsed(startedAt: number): number {
  const [now, setNow] = useState(startedAt);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, Math.round((now - startedAt) / 1000));
}

/** While the request runs: one bar (the server creates all or nothing in one step) and the time so far. */
export function CreationProgress({ count, startedAt }: { count: number; startedAt: number }) {
  const { t } = useTranslation();
  const elapsed = useElapsed(startedAt);
  return (
    <Flex vertical gap={4} role="status" aria-live="polite" data-testid="creation-progress">
      <Typography.Text>{t('batch.running', { count })}</Typography.Text>
      <Progress percent={100} status="active" showInfo={false} />
      <Typography.Text type="secondary">{t('batch.elapsed', { seconds: elapsed })}</Typography.Text>
    </Flex>
  );
}

/** The rows of the batch that clash, each with what it clashes on (`rows.<index>.<field>` errors). */
type ClashingRow = { index: number; field: string; key: string };

function clashingRows(error: unknown): ClashingRow[] {
  if (!isApiError(error)) return [];
  return error.fields.flatMap((f) => {
    const match = /^rows\.(\d+)\.(\w+)$/.exec(f.field);
    return match ? [{ index: Number(match[1]), field: match[2] ?? '', key: f.key }] : [];
  });
}

/**
 * Why the creation failed: "account shortage" with the numbers, the rows that clash (each with
 * what it clashes on), or the server's message. Nothing was created in any case.
 */
export function CreationFailure({ error, rowLabel }: { error: unknown; rowLabel: (index: number) => string }) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const ref = useRef<HTMLDivElement>(null);
  // The form is long: bring the answer into view.
  useEffect(() => ref.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' }), [error]);
  const shortage = isApiError(error) && error.key === MessageKeys.accountShortage;
  const rows = shortage ? [] : clashingRows(error);
  return (
    <div ref={ref}>
      <Alert
        type="error"
        showIcon
        title={shortage ? t('batch.shortage_title') : t('batch.failed_title')}
        data-testid={shortage ? 'account-shortage' : 'creation-failed'}
        description={
          rows.length === 0 ? (
            errorMessage(error)
          ) : (
            <Flex vertical gap={8}>
              <span>{t('batch.failed_rows', { count: rows.length })}</span>
              <Table
                size="small"
                pagination={rows.length > 10 ? { pageSize: 10, size: 'small' } : false}
                rowKey={(row) => `${row.index}.${row.field}`}
                dataSource={rows}
                columns={[
                  { key: 'row', title: t('batch.row'), render: (_v, row) => row.index + 1, width: 64 },
                  { key: 'user', title: t('batch.user'), render: (_v, row) => rowLabel(row.index) },
                  { key: 'error', title: t('batch.problem'), render: (_v, row) => t(row.key) },
                ]}
              />
            </Flex>
          )
        }
      />
    </div>
  );
}

/** What was created, and where to go next. */
export function CreationDone({
  result,
  onAgain,
  onBack,
}: {
  result: CreatedUsers;
  onAgain: () => void;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Result
      status="success"
      title={t('batch.done', { count: result.created })}
      data-testid="creation-done"
      extra={[
        <Button key="back" type="primary" onClick={onBack}>
          {t('batch.to_users')}
        </Button>,
        <Button key="again" onClick={onAgain}>
          {t('batch.again')}
        </Button>,
      ]}
    >
      <Table
        size="small"
        rowKey="UserID"
        dataSource={result.users}
        pagination={result.users.length > 10 ? { pageSize: 10, size: 'small' } : false}
        columns={[
          { key: 'name', dataIndex: 'UserName', title: t('users.name') },
          { key: 'phone', dataIndex: 'MobilePhone', title: t('users.phone') },
        ]}
      />
    </Result>
  );
}

/** Under the form: the progress while the request runs, or why nothing was created. */
export function CreationState({ creation, rowLabel }: { creation: Creation; rowLabel: (index: number) => string }) {
  if (creation.state !== 'failed' && creation.state !== 'running') return null;
  return (
    <div style={{ marginBottom: 16 }}>
      {creation.state === 'failed' ? (
        <CreationFailure error={creation.error} rowLabel={rowLabel} />
      ) : (
        <CreationProgress count={creation.count} startedAt={creation.startedAt} />
      )}
    </div>
  );
}
