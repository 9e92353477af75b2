import { acknowledgeSchema, NotifyLimits, resolveSchema, type NotifyRow } from '@intercom/contract';
import { Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { contractErrors } from '../../shared/form/contractErrors';
import { FormDialog } from '../../shared/form/FormDialog';
import { useChangeNotifications, type NotifyStep } from './api';
import { typeLabel } from './notifyText';
import { formatDateTime } from '../../shared/format/formatDateTime';

export interface NotifyAction {
  step: NotifyStep;
  alarms: NotifyRow[];
}

interface CommentValues {
  comment: string;
}

/**
 * Acknowledge (comment optional) or resolve (comment required) one or several alarms. The same
 * contract schema as the server checks the comment first; a 409 says another console was faster.
 */
export function NotifyActionDialog({
  action,
  onClose,
}: {
  action: NotifyAction | null;
  onClose: (changed: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const change = useChangeNotifications();
  const resolving = action?.step === 'resolve';
  const first = action?.alarms[0];
  const count = action?.alarms.length ?? 0;
  const bodyOf = (values: CommentValues) => ({
    ids: (action?.alarms ?? []).map((alarm) => alarm.N_ID),
    comment: values.comment ?? '',
  });

  return (
    <FormDialog<CommentValues>
      open={action !== null}
      title={resolving ? t('alarms.resolve_title') : t('alarms.acknowledge_title')}
      okText={resolving ? t('alarms.resolve') : t('alarms.acknowledge')}
      testId="notify-action-dialog"
      intro={
        <Typography.Paragraph>
          {count === 1 && first
            ? t('alarms.action_one', {
                type: typeLabel(i18n, first.NType),
                name: first.UserName ?? first.Phone,
                time: formatDateTime(first.CreatedAt),
              })
            : t('alarms.action_many', { count })}
        </Typography.Paragraph>
      }
      initialValues={{ comment: '' }}
      validate={(values) =>
        contractErrors(resolving ? resolveSchema : acknowledgeSchema, bodyOf(values)).filter(
          (error) => error.field === 'comment',
        )
      }
      save={async (values) => {
        if (action) await change.mutateAsync({ step: action.step, ...bodyOf(values) });
      }}
      successText={() => (resolving ? t('alarms.resolved_done', { count }) : t('alarms.acknowledged_done', { count }))}
      onSaved={() => onClose(true)}
      onCancel={() => onClose(false)}
    >
      <Form.Item
        name="comment"
        label={t('alarms.comment')}
        required={resolving}
        extra={resolving ? t('alarms.comment_required_hint') : t('alarms.comment_optional_hint')}
      >
        <Input.TextArea rows={3} maxLength={NotifyLimits.commentMax} showCount autoFocus />
      </Form.Item>
    </FormDialog>
  );
}
