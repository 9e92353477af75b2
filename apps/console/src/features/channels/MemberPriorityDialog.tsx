import { bChangeMemPriSchema, ChannelLimits, MessageKeys } from '@intercom/contract';
import { Alert, Form, InputNumber, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../shared/api/ApiError';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { contractErrors } from '../../shared/form/contractErrors';
import { useToast } from '../../shared/ui/ToastContext';
import { useMemberPriority } from './api';

export interface PriorityTarget {
  cid: number;
  /** The members to change; one names its user in the title. */
  members: { UserID: number; UserName: string }[];
  /** The priority the field starts with (the member's own, for one). */
  priority: number | null;
}

interface PriorityValues {
  priority: number | null;
}

/** The member priority (0-7, larger wins the floor) of one member or of several at once. */
export function MemberPriorityDialog({
  target,
  onClose,
}: {
  target: PriorityTarget | null;
  onClose: (changed: boolean) => void;
}) {
  const { t } = useTranslation();
  const message = useToast();
  const errorMessage = useErrorMessage();
  const change = useMemberPriority();
  const [form] = Form.useForm<PriorityValues>();
  const [failure, setFailure] = useState<string | null>(null);
  const members = target?.members ?? [];

  const submit = async ({ priority }: PriorityValues) => {
    if (!target) return;
    setFailure(null);
    const body = { rid: target.cid, uids: members.map((m) => m.UserID), priority: priority ?? undefined };
    const invalid = contractErrors(bChangeMemPriSchema, body)[0];
    if (invalid) {
      form.setFields([{ name: 'priority', errors: [t(invalid.key)] }]);
      return;
    }
    try {
      await change.mutateAsync({ cid: target.cid, uids: body.uids, priority: priority as number });
      message.success(
        members.length === 1
          ? t('channels.priority_changed_one', { name: members[0]?.UserName ?? '', priority: priority as number })
          : t('channels.priority_changed', { count: members.length, priority: priority as number }),
      );
      onClose(true);
    } catch (error) {
      if (isApiError(error) && (error.connectionFailed || error.sessionEnded)) return;
      setFailure(errorMessage(error) || t(MessageKeys.failed));
    }
  };

  return (
    <Modal
      open={target !== null}
      title={
        members.length === 1
          ? t('channels.priority_title_one', { name: members[0]?.UserName ?? '' })
          : t('channels.priority_title_many', { count: members.length })
      }
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={change.isPending}
      onOk={() => form.submit()}
      onCancel={() => onClose(false)}
      destroyOnHidden
    >
      <div data-testid="member-priority-dialog">
        <Form<PriorityValues>
          form={form}
          layout="vertical"
          initialValues={{ priority: target?.priority ?? null }}
          onFinish={(values) => void submit(values)}
        >
          <Form.Item name="priority" label={t('channels.member_priority')} extra={t('channels.priority_hint')}>
            <InputNumber min={ChannelLimits.priorityMin} max={ChannelLimits.priorityMax} precision={0} autoFocus />
          </Form.Item>
        </Form>
        {failure && <Alert type="error" showIcon title={failure} />}
      </div>
    </Modal>
  );
}
