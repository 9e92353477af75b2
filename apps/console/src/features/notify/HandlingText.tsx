import type { NotifyRow } from '@intercom/contract';
import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format/formatDateTime';

/** Who acknowledged and who resolved an alarm, when, and what they wrote. */
export function HandlingText({ alarm }: { alarm: NotifyRow }) {
  const { t } = useTranslation();
  const steps = [
    alarm.AckAt !== null
      ? {
          key: 'ack',
          text: t('alarms.acknowledged_by', { name: alarm.AckName, time: formatDateTime(alarm.AckAt) }),
          comment: alarm.AckComment,
        }
      : null,
    alarm.HandledAt !== null
      ? {
          key: 'resolved',
          text: t('alarms.resolved_by', { name: alarm.HandledName, time: formatDateTime(alarm.HandledAt) }),
          comment: alarm.Comment,
        }
      : null,
  ].flatMap((step) => (step ? [step] : []));
  if (steps.length === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Flex vertical gap={2}>
      {steps.map((step) => (
        <Flex vertical key={step.key}>
          <Typography.Text style={{ whiteSpace: 'nowrap' }}>{step.text}</Typography.Text>
          {step.comment && (
            <Typography.Text type="secondary" ellipsis={{ tooltip: step.comment }} style={{ maxWidth: 260 }}>
              {step.comment}
            </Typography.Text>
          )}
        </Flex>
      ))}
    </Flex>
  );
}
