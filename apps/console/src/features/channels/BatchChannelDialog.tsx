import { bChangeRoomSchema, ChannelLimits, MessageKeys } from '@intercom/contract';
import { Alert, Form, InputNumber, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../shared/api/ApiError';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { contractErrors } from '../../shared/form/contractErrors';
import { useToast } from '../../shared/ui/ToastContext';
import { useSysConfig } from '../account/api';
import { useBatchChangeChannels } from './api';
import { allowedChannelTypes, channelTypeLabel } from './channelTypes';

interface BatchValues {
  priority?: number | null;
  typeid?: number;
}

/**
 * BChangeRoom: the priority and/or the audio quality of the ticked channels, all or nothing. A
 * field left empty stays as it is for each channel; the types offered are the enterprise's list.
 */
export function BatchChannelDialog({
  open,
  channelIds,
  onClose,
}: {
  open: boolean;
  channelIds: number[];
  onClose: (changed: boolean) => void;
}) {
  const { t } = useTranslation();
  const message = useToast();
  const errorMessage = useErrorMessage();
  const config = useSysConfig().data;
  const change = useBatchChangeChannels();
  const [form] = Form.useForm<BatchValues>();
  const [failure, setFailure] = useState<string | null>(null);
  const types = allowedChannelTypes(config?.ChannelTypeID);

  const submit = async (values: BatchValues) => {
    setFailure(null);
    const body = {
      cids: channelIds,
      priority: values.priority ?? undefined,
      typeid: values.typeid ?? undefined,
    };
    if (body.priority === undefined && body.typeid === undefined) {
      setFailure(t('channels.batch_nothing'));
      return;
    }
    const invalid = contractErrors(bChangeRoomSchema, body)[0];
    if (invalid) {
      setFailure(t(invalid.key));
      return;
    }
    try {
      const answer = await change.mutateAsync(body);
      message.success(t('channels.batch_changed', { count: answer?.changed ?? channelIds.length }));
      onClose(true);
    } catch (error) {
      if (isApiError(error) && (error.connectionFailed || error.sessionEnded)) return;
      if (isApiError(error) && error.key === MessageKeys.channelTypeNotAllowed) {
        form.setFields([{ name: 'typeid', errors: [errorMessage(error)] }]);
        return;
      }
      setFailure(errorMessage(error) || t(MessageKeys.failed));
    }
  };

  return (
    <Modal
      open={open}
      title={t('channels.batch_title', { count: channelIds.length })}
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
      <div data-testid="batch-channel-dialog">
        <Form<BatchValues> form={form} layout="vertical" onFinish={(values) => void submit(values)}>
          <Form.Item name="priority" label={t('channels.priority')} extra={t('channels.batch_priority_hint')}>
            <InputNumber
              min={ChannelLimits.priorityMin}
              max={ChannelLimits.priorityMax}
              precision={0}
              placeholder={t('channels.batch_unchanged')}
              style={{ width: 200 }}
            />
          </Form.Item>
          <Form.Item name="typeid" label={t('channels.type')} extra={t('channels.type_hint')}>
            <Select
              allowClear
              placeholder={t('channels.batch_unchanged')}
              options={types.map((id) => ({ value: id, label: channelTypeLabel(t, id) }))}
            />
          </Form.Item>
        </Form>
        {failure && <Alert type="error" showIcon title={failure} />}
      </div>
    </Modal>
  );
}
