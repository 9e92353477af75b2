import type { IncidentRow } from '@intercom/contract';
import { Button, Card, Flex, Popconfirm, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { wasShown } from '../../shared/api/ApiError';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { useToast } from '../../shared/ui/ToastContext';
import { memberNames, useCloseIncident } from './api';

/** One open incident: its name, its members now, and Close. */
export function OpenIncidentCard({ row }: { row: IncidentRow }) {
  const { t } = useTranslation();
  const message = useToast();
  const errorText = useErrorMessage();
  const close = useCloseIncident();
  const members = memberNames(row);

  const confirm = async () => {
    try {
      await close.mutateAsync(row.IN_ID);
      void message.success(t('incident.closed', { name: row.Name }));
    } catch (error) {
      if (!wasShown(error)) void message.error(errorText(error));
    }
  };

  return (
    <Card
      size="small"
      title={row.Name}
      extra={
        <Popconfirm title={t('incident.close_confirm', { name: row.Name })} onConfirm={() => void confirm()}>
          <Button size="small" danger loading={close.isPending} data-testid={`incident-close-${row.IN_ID}`}>
            {t('incident.close')}
          </Button>
        </Popconfirm>
      }
      data-testid={`incident-${row.IN_ID}`}
    >
      <Typography.Text type="secondary">
        {t('incident.members', { count: members.length })}
        {row.Sticky ? ` · ${t('incident.sticky')}` : ''}
      </Typography.Text>
      <Flex wrap gap={4} style={{ marginTop: 6 }}>
        {members.length === 0 ? (
          <Typography.Text type="secondary">{t('incident.no_members')}</Typography.Text>
        ) : (
          members.map((m) => <Tag key={m.U_ID}>{m.name}</Tag>)
        )}
      </Flex>
    </Card>
  );
}
