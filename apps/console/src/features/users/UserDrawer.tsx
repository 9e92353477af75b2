import { Limits, MessageKeys, UserLimits, userSaveSchema, type UserRow } from '@intercom/contract';
import { DatePicker, Form, Input, InputNumber } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { contractErrors } from '../../shared/form/contractErrors';
import { EditDrawer } from '../../shared/form/EditDrawer';
import { DepartmentSelect } from '../../shared/pickers/DepartmentSelect';
import { useUser } from '../../shared/pickers/pickerQueries';
import { useSaveUser } from './api';
import { GpsConfigFields } from './GpsConfigFields';
import { gpsConfigText, gpsFormValues, type GpsFormValues } from './gpsConfig';
import { UserTypeSelect } from '../../shared/pickers/UserTypeSelect';

interface UserValues extends GpsFormValues {
  UserName: string;
  MobilePhone: string;
  ICCID: string;
  OS_ID: number | undefined;
  UType: number;
  PriorityLevel: number;
  ExpireAt: Dayjs | null;
  Password: string;
  Remark: string;
}

export type UserTarget =
  { mode: 'create'; eid: number; departmentId: number | undefined } | { mode: 'edit'; id: number };

function toFormValues(user: UserRow): Partial<UserValues> {
  return {
    UserName: user.UserName,
    MobilePhone: user.MobilePhone,
    ICCID: user.ICCID ?? '',
    OS_ID: user.OS_ID ?? undefined,
    UType: user.UType,
    PriorityLevel: user.PriorityLevel,
    ExpireAt: user.ExpireAt === null ? null : dayjs(user.ExpireAt),
    Password: '',
    Remark: user.Remark,
    ...gpsFormValues(user.GPSConfig),
  };
}

/** The form body of UpdateUser; an empty password on an edit keeps the current one. */
function toBody(values: UserValues, userId: number, enterpriseId: number | undefined) {
  return {
    UserID: userId,
    E_ID: userId === 0 ? enterpriseId : undefined,
    UserName: values.UserName ?? '',
    MobilePhone: (values.MobilePhone ?? '').trim(),
    ICCID: values.ICCID ?? '',
    OS_ID: values.OS_ID ?? 0,
    UType: values.UType ?? 0,
    PriorityLevel: values.PriorityLevel ?? 0,
    // The end of the chosen day where the administrator is, so the list shows the same date.
    ExpireAt: values.ExpireAt ? values.ExpireAt.endOf('day').valueOf() : '',
    Password: values.Password ? values.Password : userId === 0 ? '' : undefined,
    GPSConfig: gpsConfigText(values),
    Remark: values.Remark ?? '',
  };
}

/** Create or edit one terminal user (name, phone, ICCID, department, type, priority, expiry, password, GPS). */
export function UserDrawer({ target, onClose }: { target: UserTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  const editing = target?.mode === 'edit' ? target.id : undefined;
  const user = useUser(editing);
  const save = useSaveUser();
  const enterpriseId = target?.mode === 'create' ? target.eid : user.data?.E_ID;

  const body = (values: UserValues) => toBody(values, editing ?? 0, enterpriseId);
  return (
    <EditDrawer<UserValues>
      open={target !== null}
      onClose={onClose}
      title={editing ? t('users.edit') : t('users.create')}
      width={560}
      load={editing ? user : undefined}
      toFormValues={toFormValues}
      initialValues={{
        UType: 0,
        PriorityLevel: 0,
        ICCID: '',
        Password: '',
        Remark: '',
        ExpireAt: null,
        OS_ID: target?.mode === 'create' ? target.departmentId : undefined,
        ...gpsFormValues(''),
      }}
      validate={(values) => contractErrors(userSaveSchema, body(values))}
      save={(values) => save.mutateAsync(body(values))}
      fieldNames={{ GPSConfig: 'gpsInterval' }}
      messageFields={{
        [MessageKeys.nameExists]: 'UserName',
        [MessageKeys.phoneExists]: 'MobilePhone',
        [MessageKeys.iccidExists]: 'ICCID',
      }}
      testId="user-drawer"
    >
      <Form.Item name="UserName" label={t('users.name')} required>
        <Input maxLength={UserLimits.nameMax} autoFocus />
      </Form.Item>
      <Form.Item name="MobilePhone" label={t('users.phone')} required extra={t('users.phone_hint')}>
        <Input maxLength={UserLimits.phoneMax} inputMode="numeric" />
      </Form.Item>
      <Form.Item name="ICCID" label={t('users.iccid')} extra={t('users.iccid_hint')}>
        <Input maxLength={Limits.iccidMaxLength + 4} showCount style={{ fontFamily: 'monospace' }} />
      </Form.Item>
      <Form.Item name="OS_ID" label={t('users.department')}>
        <DepartmentSelect enterpriseId={enterpriseId} />
      </Form.Item>
      <Form.Item name="UType" label={t('users.type')}>
        <UserTypeSelect enterpriseId={enterpriseId} />
      </Form.Item>
      <Form.Item name="PriorityLevel" label={t('users.priority')} extra={t('users.priority_hint')}>
        <InputNumber min={UserLimits.priorityMin} max={UserLimits.priorityMax} precision={0} />
      </Form.Item>
      <Form.Item name="ExpireAt" label={t('users.expire')} extra={t('users.expire_hint')}>
        <DatePicker allowClear style={{ width: 200 }} />
      </Form.Item>
      <Form.Item
        name="Password"
        label={t('users.terminal_password')}
        required={!editing}
        extra={editing ? t('users.password_keep') : t('users.password_rule')}
      >
        <Input.Password autoComplete="new-password" maxLength={Limits.passwordMax} />
      </Form.Item>
      <GpsConfigFields />
      <Form.Item name="Remark" label={t('users.remark')}>
        <Input.TextArea maxLength={UserLimits.remarkMax} autoSize={{ minRows: 2, maxRows: 4 }} />
      </Form.Item>
    </EditDrawer>
  );
}
