import { acknowledgeSchema, NotifyLimits, resolveSchema, type NotifyRow } from '@intercom/contract';
import { Form, Input, Modal, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../shared/api/ApiError';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { contractErrors } from '../../shared/form/contractErrors';
import { useToast } from '../../shared/ui/ToastContext';
import { useChangeNotifications, type NotifyStep } from './api';
import { typeLabel } from './notifyText';

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
  const message = useToast();
  const errorMessage = useErrorMessage();
  const change = useChangeNotifications();
  const [form] = Form.useForm<CommentValues>();
  const resolving = action?.step === 'resolve';
  const first = action?.alarms[0];

  const submit = async (values: CommentValues) => {
    if (!action) return;
    const body = { ids: action.alarms.map((alarm) => alarm.N_ID), comment: values.comment ?? '' };
    const errors = contractErrors(resolving ? resolveSchema : acknowledgeSchema, body);
    const commentError = errors.find((error) => error.field === 'comment');
    if (commentError) {
      form.setFields([{ name: 'comment', errors: [t(commentError.key)] }]);
      return;
    }
    try {
      await change.mutateAsync({ step: action.step, ...body });
      const count = action.alarms.length;
      message.success(resolving ? t('alarms.resolved_done', { count }) : t('alarms.acknowledged_done', { count }));
      onClose(true);
    } catch (error) {
      if (isApiError(error) && (error.connectionFailed || error.sessionEnded)) return;
      message.error({ content: errorMessage(error), duration: 5 });
    }
  };

  const title = resolving ? t('alarms.resolve_title') : t('alarms.acknowledge_title');
  return (
    <Modal
      open={action !== null}
      title={title}
      okText={resolving ? t('alarms.resolve') : t('alarms.acknowledge')}
      cancelText={t('common.cancel')}
      confirmLoading={change.isPending}
      onOk={() => form.submit()}
      onCancel={() => onClose(false)}
      destroyOnHidden
    >
      <div data-testid="notify-action-dialog">
        <Typography.Paragraph>
          {action && action.alarms.length === 1 && first
            ? t('alarms.action_one', {
                type: typeLabel(i18n, first.NType),
                name: first.UserName ?? first.Phone,
                time: dayjs(first.CreatedAt).format('YYYY-MM-DD HH:mm'),
              })
            : t('alarms.action_many', { count: action?.alarms.length ?? 0 })}
        </Typography.Paragraph>
        <Form<CommentValues>
          form={form}
          layout="vertical"
          initialValues={{ comment: '' }}
          onFinish={(values) => void submit(values)}
        >
          <Form.Item
            name="comment"
            label={t('alarms.comment')}
            required={resolving}
            extra={resolving ? t('alarms.comment_required_hint') : t('alarms.comment_optional_hint')}
          >
            <Input.TextArea rows={3} maxLength={NotifyLimits.commentMax} showCount autoFocus />
          </Form.Item>
        </Form>
      </div>
    </Modal>
  );
}
