import { bChangeRoomSchema, ChannelLimits, MessageKeys } from '@intercom/contract';
import { Form, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { contractErrors } from '../../shared/form/contractErrors';
import { FormDialog } from '../../shared/form/FormDialog';
import { useSysConfig } from '../account';
import { useBatchChangeChannels } from './api';
import { allowedChannelTypes, channelTypeLabel } from './channelTypes';

interface BatchValues {
  priority?: number | null;
  typeid?: number;
}

/** The body of BChangeRoom: a field left empty is left out. */
function changeBody(channelIds: number[], values: BatchValues) {
  return { cids: channelIds, priority: values.priority ?? undefined, typeid: values.typeid ?? undefined };
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
  const config = useSysConfig().data;
  const change = useBatchChangeChannels();
  const types = allowedChannelTypes(config?.ChannelTypeID);

  return (
    <FormDialog
      open={open}
      title={t('channels.batch_title', { count: channelIds.length })}
      testId="batch-channel-dialog"
      keepMounted
      failureAs="alert"
      validate={(values) => {
        const body = changeBody(channelIds, values);
        if (body.priority === undefined && body.typeid === undefined) return 'channels.batch_nothing';
        return contractErrors(bChangeRoomSchema, body)[0]?.key;
      }}
      save={(values: BatchValues) => change.mutateAsync(changeBody(channelIds, values))}
      successText={(answer) => t('channels.batch_changed', { count: answer?.changed ?? channelIds.length })}
      messageFields={{ [MessageKeys.channelTypeNotAllowed]: 'typeid' }}
      onSaved={() => onClose(true)}
      onCancel={() => onClose(false)}
    >
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
    </FormDialog>
  );
}
