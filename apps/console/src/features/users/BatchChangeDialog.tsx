import { batchChangeUsersSchema, MessageKeys, UserLimits } from '@intercom/contract';
import { Alert, Form, InputNumber, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../shared/api/ApiError';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { contractErrors } from '../../shared/form/contractErrors';
import { useToast } from '../../shared/ui/ToastContext';
import { DepartmentSelect } from '../organ/DepartmentSelect';
import { useBatchChangeUsers } from './api';

interface ChangeValues {
  priValue?: number | null;
  mValue?: number;
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
  const message = useToast();
  const errorMessage = useErrorMessage();
  const change = useBatchChangeUsers();
  const [form] = Form.useForm<ChangeValues>();
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (values: ChangeValues) => {
    setFailure(null);
    const body = {
      uids: userIds,
      priValue: values.priValue ?? undefined,
      mValue: values.mValue ?? undefined,
    };
    if (body.priValue === undefined && body.mValue === undefined) {
      setFailure(t('users.batch_change_nothing'));
      return;
    }
    const invalid = contractErrors(batchChangeUsersSchema, body)[0];
    if (invalid) {
      setFailure(t(invalid.key));
      return;
    }
    try {
      const answer = await change.mutateAsync(body);
      message.success(t('users.batch_changed', { count: answer.BaseData?.changed ?? userIds.length }));
      onClose(true);
    } catch (error) {
      if (isApiError(error) && (error.connectionFailed || error.sessionEnded)) return;
      setFailure(errorMessage(error) || t(MessageKeys.failed));
    }
  };

  return (
    <Modal
      open={open}
      title={t('users.batch_change_title', { count: userIds.length })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={change.isPending}
      onOk={() => form.submit()}
      onCancel={() => onClose(false)}
      afterClose={() => {
        form.resetFields();
        setFailure(null);
      }}
      forceRender
    >
      <div data-testid="batch-change-dialog">
        <Form<ChangeValues> form={form} layout="vertical" onFinish={(values) => void submit(values)}>
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
        </Form>
        {failure && <Alert type="error" showIcon title={failure} />}
      </div>
    </Modal>
  );
}
