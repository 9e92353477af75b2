import { Limits, mapHidden } from '@intercom/contract';
import { Card, Descriptions, Flex, Form, Input, InputNumber, Select, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { EditFormShell } from '../../shared/form/EditFormShell';
import { SwitchItem } from '../../shared/form/SwitchItem';
import type { SysConfig } from '../../shared/session/SessionContext';
import { useSysConfig } from '../account';
import { useModifyConfig } from './api';
import {
  baseConfigChanges,
  baseFormValues,
  CHANNEL_TYPE_LABELS,
  FIELD_OF_CODE,
  MAP_CHOICES,
  MAP_LABELS,
  validateBaseSettings,
  type BaseSettingsValues,
} from './baseSettings';

const noop = () => undefined;
/** Examples of the formats (addresses read the same in every language). */
const MAP_URL_EXAMPLE = 'https://tiles.example.com/{z}/{x}/{y}.png';
const GPS_SERVER_EXAMPLE = 'gps.example.com:5000';

/** The entries as they are in force now, the way a person reads them. */
function InForce({ config }: { config: SysConfig | undefined }) {
  const { t } = useTranslation();
  const values = baseFormValues(config);
  const onOff = (on: boolean) => (
    <Tag color={on ? 'green' : 'default'}>{on ? t('settings.on') : t('settings.off')}</Tag>
  );
  const empty = <Typography.Text type="secondary">{t('settings.not_set')}</Typography.Text>;
  return (
    <Descriptions
      data-testid="settings-in-force"
      column={{ xs: 1, md: 2 }}
      size="small"
      bordered
      items={[
        {
          key: 'map',
          label: t('settings.map'),
          children: (
            <Flex vertical gap={2}>
              <span>{t(MAP_LABELS[values.mapChoice])}</span>
              {values.mapUrl && <Typography.Text code>{values.mapUrl}</Typography.Text>}
              {mapHidden(config?.DefaultMap) && (
                <Typography.Text type="warning">{t('settings.map_hidden_note')}</Typography.Text>
              )}
            </Flex>
          ),
        },
        { key: 'gps', label: t('settings.gps_server'), children: values.GPSServer || empty },
        { key: 'video', label: t('settings.video'), children: onOff(values.VideoEnable) },
        { key: 'record', label: t('settings.record'), children: onOff(values.RecordEnable) },
        {
          key: 'talkMax',
          label: t('settings.talk_max_seconds'),
          children: t('settings.seconds_value', { value: values.TalkMaxSeconds }),
        },
        { key: 'dispatchPriority', label: t('settings.dispatch_priority'), children: values.DispatchPriority },
        {
          key: 'types',
          label: t('settings.channel_types'),
          children: (
            <Flex gap={4} wrap>
              {values.ChannelTypeID.map((type) => (
                <Tag key={type}>{t(CHANNEL_TYPE_LABELS[type as keyof typeof CHANNEL_TYPE_LABELS] ?? String(type))}</Tag>
              ))}
            </Flex>
          ),
        },
        {
          key: 'webchat',
          label: t('settings.webchat'),
          children: values.WebChatConfig ? (
            <Typography.Text code style={{ wordBreak: 'break-all' }}>
              {values.WebChatConfig}
            </Typography.Text>
          ) : (
            empty
          ),
        },
      ]}
    />
  );
}

/** Map, GPS server, video, recording, channel types and web chat: one ModifyConfig per changed entry. */
export function BaseSettingsForm() {
  const { t } = useTranslation();
  const sysConfig = useSysConfig();
  const modify = useModifyConfig();
  const [form] = Form.useForm<BaseSettingsValues>();
  const mapChoice = Form.useWatch('mapChoice', form);

  return (
    <Flex vertical gap={16}>
      <Card title={t('settings.in_force')} size="small">
        <InForce config={sysConfig.data} />
      </Card>
      <EditFormShell<BaseSettingsValues>
        title={t('settings.change')}
        form={form}
        load={sysConfig}
        toFormValues={(config: SysConfig) => baseFormValues(config)}
        validate={validateBaseSettings}
        save={(values) => modify.mutateAsync(baseConfigChanges(values, sysConfig.data))}
        fieldNames={FIELD_OF_CODE}
        onClose={noop}
        showCancel={false}
      >
        <Form.Item name="mapChoice" label={t('settings.map')} extra={t('settings.map_hint')}>
          <Select options={MAP_CHOICES.map((choice) => ({ value: choice, label: t(MAP_LABELS[choice]) }))} />
        </Form.Item>
        {mapChoice === 'CUSTOM' && (
          <Form.Item name="mapUrl" label={t('settings.map_url')} extra={t('settings.map_url_hint')} required>
            <Input maxLength={512} placeholder={MAP_URL_EXAMPLE} inputMode="url" />
          </Form.Item>
        )}
        <Form.Item name="GPSServer" label={t('settings.gps_server')} extra={t('settings.gps_server_hint')}>
          <Input maxLength={256} placeholder={GPS_SERVER_EXAMPLE} />
        </Form.Item>
        <SwitchItem name="VideoEnable" label={t('settings.video')} extra={t('settings.video_hint')} />
        <SwitchItem name="RecordEnable" label={t('settings.record')} extra={t('settings.record_hint')} />
        <Form.Item
          name="TalkMaxSeconds"
          label={t('settings.talk_max_seconds')}
          extra={t('settings.talk_max_seconds_hint')}
          required
        >
          <InputNumber min={5} max={600} precision={0} addonAfter={t('settings.seconds')} />
        </Form.Item>
        <Form.Item
          name="DispatchPriority"
          label={t('settings.dispatch_priority')}
          extra={t('settings.dispatch_priority_hint')}
          required
        >
          <InputNumber min={0} max={7} precision={0} />
        </Form.Item>
        <Form.Item
          name="ChannelTypeID"
          label={t('settings.channel_types')}
          extra={t('settings.channel_types_hint')}
          required
        >
          <Select
            mode="multiple"
            allowClear
            options={Limits.audioTypes.map((type) => ({ value: type, label: t(CHANNEL_TYPE_LABELS[type]) }))}
          />
        </Form.Item>
        <Form.Item name="WebChatConfig" label={t('settings.webchat')} extra={t('settings.webchat_hint')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} maxLength={4096} spellCheck={false} />
        </Form.Item>
      </EditFormShell>
    </Flex>
  );
}
