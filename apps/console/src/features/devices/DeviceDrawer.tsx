import { deviceSaveSchema, DeviceLimits, Limits, MessageKeys, UserLimits, type DeviceRow } from '@intercom/contract';
import { Alert, Form, Input, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { contractErrors } from '../../shared/form/contractErrors';
import { EditDrawer } from '../../shared/form/EditDrawer';
import { DepartmentSelect } from '../../shared/pickers/DepartmentSelect';
import { UserTypeSelect } from '../../shared/pickers/UserTypeSelect';
import { useDevice, useSaveDevice } from './api';
import { DeviceChannels } from './DeviceChannels';

interface DeviceValues {
  ICCID: string;
  DeviceCode: string;
  NickName: string;
  Priority: number;
  OSID: number | undefined;
  UType: number;
  Remark: string;
}

export type DeviceTarget = { mode: 'create'; eid: number } | { mode: 'edit'; id: number };

/** Create or edit one device / SIM record of the inventory. */
export function DeviceDrawer({ target, onClose }: { target: DeviceTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  const editing = target?.mode === 'edit' ? target.id : undefined;
  const device = useDevice(editing);
  const save = useSaveDevice();
  const enterpriseId = target?.mode === 'create' ? target.eid : device.data?.E_ID;
  const body = (values: DeviceValues) => ({
    D_ID: editing ?? 0,
    E_ID: editing ? undefined : enterpriseId,
    ICCID: values.ICCID ?? '',
    DeviceCode: values.DeviceCode ?? '',
    NickName: values.NickName ?? '',
    Priority: values.Priority ?? 0,
    OSID: values.OSID ?? 0,
    UType: values.UType ?? 0,
    Remark: values.Remark ?? '',
  });
  return (
    <EditDrawer<DeviceValues>
      open={target !== null}
      onClose={onClose}
      title={editing ? t('devices.edit') : t('devices.create')}
      load={editing ? device : undefined}
      toFormValues={(row: DeviceRow) => ({ ...row, OSID: row.OSID ?? undefined })}
      initialValues={{ ICCID: '', DeviceCode: '', NickName: '', Priority: 0, UType: 0, Remark: '' }}
      validate={(values) => contractErrors(deviceSaveSchema, body(values))}
      save={(values) => save.mutateAsync(body(values))}
      messageFields={{ [MessageKeys.iccidExists]: 'ICCID' }}
      testId="device-drawer"
    >
      {device.data?.UserID ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('devices.mapped_to', { name: device.data.UserName ?? '', phone: device.data.MobilePhone ?? '' })}
        />
      ) : null}
      <Form.Item name="ICCID" label={t('users.iccid')} required extra={t('users.iccid_hint')}>
        <Input maxLength={Limits.iccidMaxLength + 4} showCount style={{ fontFamily: 'monospace' }} autoFocus />
      </Form.Item>
      <Form.Item name="DeviceCode" label={t('devices.code')}>
        <Input maxLength={DeviceLimits.codeMax} />
      </Form.Item>
      <Form.Item name="NickName" label={t('devices.nickname')}>
        <Input maxLength={DeviceLimits.nickNameMax} />
      </Form.Item>
      <Form.Item name="Priority" label={t('users.priority')} extra={t('users.priority_hint')}>
        <InputNumber min={UserLimits.priorityMin} max={UserLimits.priorityMax} precision={0} />
      </Form.Item>
      <Form.Item name="OSID" label={t('users.department')}>
        <DepartmentSelect enterpriseId={enterpriseId} />
      </Form.Item>
      <Form.Item name="UType" label={t('users.type')}>
        <UserTypeSelect enterpriseId={enterpriseId} />
      </Form.Item>
      <Form.Item name="Remark" label={t('users.remark')}>
        <Input.TextArea maxLength={DeviceLimits.remarkMax} autoSize={{ minRows: 2, maxRows: 4 }} />
      </Form.Item>
      {device.data ? (
        <Form.Item label={t('devices.channels')} extra={t('devices.channels_hint')}>
          <DeviceChannels device={device.data} />
        </Form.Item>
      ) : null}
    </EditDrawer>
  );
}
