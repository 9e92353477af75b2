import { bChangeMemPriSchema, ChannelLimits } from '@intercom/contract';
import { Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { contractErrors } from '../../shared/form/contractErrors';
import { FormDialog } from '../../shared/form/FormDialog';
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
  const change = useMemberPriority();
  const members = target?.members ?? [];
  const uids = members.map((m) => m.UserID);
  const name = members[0]?.UserName ?? '';

  return (
    <FormDialog<PriorityValues, number>
      open={target !== null}
      title={
        members.length === 1
          ? t('channels.priority_title_one', { name })
          : t('channels.priority_title_many', { count: members.length })
      }
      testId="member-priority-dialog"
      failureAs="alert"
      initialValues={{ priority: target?.priority ?? null }}
      validate={({ priority }) => {
        const body = { rid: target?.cid, uids, priority: priority ?? undefined };
        const invalid = contractErrors(bChangeMemPriSchema, body)[0];
        return invalid && [{ field: 'priority', key: invalid.key }];
      }}
      save={async ({ priority }) => {
        if (target) await change.mutateAsync({ cid: target.cid, uids, priority: priority as number });
        return priority as number;
      }}
      successText={(priority) =>
        members.length === 1
          ? t('channels.priority_changed_one', { name, priority })
          : t('channels.priority_changed', { count: members.length, priority })
      }
      onSaved={() => onClose(true)}
      onCancel={() => onClose(false)}
    >
      <Form.Item name="priority" label={t('channels.member_priority')} extra={t('channels.priority_hint')}>
        <InputNumber min={ChannelLimits.priorityMin} max={ChannelLimits.priorityMax} precision={0} autoFocus />
      </Form.Item>
    </FormDialog>
  );
}
