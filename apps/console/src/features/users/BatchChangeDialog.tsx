import { batchChangeUsersSchema, UserLimits } from '@intercom/contract';
import { Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { contractErrors } from '../../shared/form/contractErrors';
import { FormDialog } from '../../shared/form/FormDialog';
import { DepartmentSelect } from '../../shared/pickers/DepartmentSelect';
import { useBatchChangeUsers } from './api';

interface ChangeValues {
  priValue?: number | null;
  mValue?: number;
}

/** The body of BChangeUser: a field left empty is left out. */
function changeBody(userIds: number[], values: ChangeValues) {
  return { uids: userIds, priValue: values.priValue ?? undefined, mValue: values.mValue ?? undefined };
}

/**
 * BChangeUser: the priority and/or the department of the ticked users, all at once. A field
 * left empty stays as it is for each user.
 */
export function BatchChangeDialog({
  open,
  userIds,
  enterpriseId,
  onClose,
}: {
  open: boolean;
  userIds: number[];
  enterpriseId: number | undefined;
  onClose: (changed: boolean) => void;
}) {
  const { t } = useTranslation();
  const change = useBatchChangeUsers();

  return (
    <FormDialog
      open={open}
      title={t('users.batch_change_title', { count: userIds.length })}
      testId="batch-change-dialog"
      keepMounted
      failureAs="alert"
      validate={(values) => {
        const body = changeBody(userIds, values);
        if (body.priValue === undefined && body.mValue === undefined) return 'users.batch_change_nothing';
        return contractErrors(batchChangeUsersSchema, body)[0]?.key;
      }}
      save={(values: ChangeValues) => change.mutateAsync(changeBody(userIds, values))}
      successText={(answer) => t('users.batch_changed', { count: answer.BaseData?.changed ?? userIds.length })}
      onSaved={() => onClose(true)}
      onCancel={() => onClose(false)}
    >
      <Form.Item name="priValue" label={t('users.priority')} extra={t('users.batch_change_keep')}>
        <InputNumber min={UserLimits.priorityMin} max={UserLimits.priorityMax} precision={0} />
      </Form.Item>
      <Form.Item name="mValue" label={t('users.department')} extra={t('users.batch_change_keep')}>
        <DepartmentSelect
          enterpriseId={enterpriseId}
          topLevel
          allowClear
          topLabel={t('organ.no_department')}
          placeholder={t('users.batch_change_unchanged')}
        />
      </Form.Item>
    </FormDialog>
  );
}
