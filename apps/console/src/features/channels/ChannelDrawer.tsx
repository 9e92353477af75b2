import {
  ChannelLimits,
  createWebChannelSchema,
  MessageKeys,
  updateChannelSchema,
  type ChannelRow,
} from '@intercom/contract';
import { Form, Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { contractErrors } from '../../shared/form/contractErrors';
import { EditDrawer } from '../../shared/form/EditDrawer';
import { SwitchItem } from '../../shared/form/SwitchItem';
import { useSysConfig } from '../account';
import { useChannel, useCreateChannel, useUpdateChannel, type PickedUser } from './api';
import { allowedChannelTypes, channelTypeLabel } from './channelTypes';
import { MembersField } from './MembersField';

interface ChannelValues {
  cname: string;
  ctypeid: number;
  priority: number;
  note: string;
  videoEnable: boolean;
  record: boolean;
  members: PickedUser[];
}

export type ChannelTarget = { mode: 'create'; eid: number } | { mode: 'edit'; id: number };

/** Characters as a person counts them (a Chinese character or an emoji is one), like the contract. */
const countChars = (text: string) => [...text].length;

function toFormValues(channel: ChannelRow): Partial<ChannelValues> {
  return {
    cname: channel.CName,
    ctypeid: channel.CTypeID,
    priority: channel.Priority,
    note: channel.Note,
    videoEnable: channel.VideoEnable === 1,
    record: channel.Record === 1,
  };
}

/** Create (with members, CreateWebChannel) or edit (UpdateChannel) one talk channel. */
export function ChannelDrawer({ target, onClose }: { target: ChannelTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  const editing = target?.mode === 'edit' ? target.id : undefined;
  const channel = useChannel(editing);
  const config = useSysConfig().data;
  const create = useCreateChannel();
  const update = useUpdateChannel();
  const enterpriseId = target?.mode === 'create' ? target.eid : channel.data?.E_ID;

  const types = allowedChannelTypes(config?.ChannelTypeID);
  const current = channel.data;
  // A channel keeps its type when the enterprise's list changes later: it stays a choice.
  const typeChoices = current && !types.includes(current.CTypeID) ? [...types, current.CTypeID] : types;
  const videoAllowed = config?.VideoEnable === 'TRUE';
  const recordAllowed = config?.RecordEnable === 'TRUE';
  // Switching off always works, so a channel that has it on shows the switch either way.
  const showVideo = videoAllowed || current?.VideoEnable === 1;

  const fields = (values: ChannelValues) => ({
    cname: values.cname ?? '',
    ctypeid: values.ctypeid,
    note: values.note ?? '',
    priority: values.priority ?? 0,
    videoEnable: showVideo ? Boolean(values.videoEnable) : undefined,
    record: Boolean(values.record),
  });
  const uids = (values: ChannelValues) => (values.members ?? []).map((user) => user.UserID);

  const validate = (values: ChannelValues) =>
    editing
      ? contractErrors(updateChannelSchema, { cid: editing, ...fields(values) })
      : contractErrors(createWebChannelSchema, { eid: enterpriseId, ...fields(values), uids: uids(values) });
  const save = (values: ChannelValues) =>
    editing
      ? update.mutateAsync({ cid: editing, ...fields(values) })
      : create.mutateAsync({ eid: enterpriseId, ...fields(values), uids: uids(values).join(',') });

  return (
    <EditDrawer<ChannelValues>
      open={target !== null}
      onClose={onClose}
      title={editing ? t('channels.edit') : t('channels.create')}
      width={560}
      load={editing ? channel : undefined}
      toFormValues={toFormValues}
      initialValues={{
        ctypeid: types[0],
        priority: 0,
        note: '',
        videoEnable: false,
        record: false,
        members: [],
      }}
      validate={validate}
      save={save}
      fieldNames={{ uids: 'members' }}
      messageFields={{
        [MessageKeys.nameExists]: 'cname',
        [MessageKeys.channelMembersEmpty]: 'members',
        [MessageKeys.channelTypeNotAllowed]: 'ctypeid',
        [MessageKeys.channelVideoDisabled]: 'videoEnable',
        [MessageKeys.channelRecordDisabled]: 'record',
        [MessageKeys.channelMemberEnterprise]: 'members',
      }}
      testId="channel-drawer"
    >
      <Form.Item name="cname" label={t('channels.name')} required extra={t('channels.name_hint')}>
        <Input autoFocus count={{ show: true, max: ChannelLimits.nameMax, strategy: countChars }} />
      </Form.Item>
      <Form.Item name="ctypeid" label={t('channels.type')} extra={t('channels.type_hint')}>
        <Select
          options={typeChoices.map((id) => ({
            value: id,
            label: channelTypeLabel(t, id),
            disabled: !types.includes(id),
          }))}
        />
      </Form.Item>
      <Form.Item name="priority" label={t('channels.priority')} extra={t('channels.priority_hint')}>
        <InputNumber min={ChannelLimits.priorityMin} max={ChannelLimits.priorityMax} precision={0} />
      </Form.Item>
      {!editing && (
        <Form.Item name="members" label={t('channels.members')} required>
          <MembersField enterpriseId={enterpriseId} />
        </Form.Item>
      )}
      {showVideo && <SwitchItem name="videoEnable" label={t('channels.video')} />}
      <SwitchItem
        name="record"
        label={t('channels.record')}
        extra={recordAllowed ? t('channels.record_hint') : t(MessageKeys.channelRecordDisabled)}
        disabled={!recordAllowed && current?.Record !== 1}
      />
      <Form.Item name="note" label={t('channels.note')}>
        <Input.TextArea maxLength={ChannelLimits.noteMax} autoSize={{ minRows: 2, maxRows: 4 }} />
      </Form.Item>
    </EditDrawer>
  );
}
