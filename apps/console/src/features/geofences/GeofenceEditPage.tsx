import { GeofenceKinds, GeofenceLimits } from '@intercom/contract';
import { Checkbox, Flex, Form, Input, InputNumber, Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EditFormShell } from '../../shared/form/EditFormShell';
import { useSession } from '../../shared/session/SessionContext';
import { useWorkingEnterprise } from '../enterprises';
import { useGeofence, useSaveGeofence } from './api';
import { DepartmentsSelect } from '../../shared/pickers/DepartmentsSelect';
import { UsersSelect } from '../../shared/pickers/UsersSelect';
import {
  NEW_GEOFENCE,
  SHAPE_FIELD_NAMES,
  toFormValues,
  toSaveBody,
  validateGeofence,
  type GeofenceValues,
} from './geofenceForm';
import { GeofenceShapeField } from './GeofenceShapeField';
import { GEOFENCE_LIST_PATH } from './paths';

/** Characters as a person counts them, like the contract. */
const countChars = (text: string) => [...text].length;

/** /main/geofence/edit[?id=]: a fence's name, shape (drawn on the map), alarms and whom it applies to. */
export default function GeofenceEditPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const idText = search.get('id');
  const id = idText && /^\d+$/.test(idText) ? Number(idText) : undefined;
  const fence = useGeofence(id);
  const { info } = useSession();
  const working = useWorkingEnterprise().data?.working.E_ID ?? info.E_ID;
  // An edit keeps the fence's enterprise; its users and departments are that enterprise's.
  const enterpriseId = id ? fence.data?.E_ID : working;
  const save = useSaveGeofence();
  const [form] = Form.useForm<GeofenceValues>();
  const kind = Form.useWatch('Kind', form) ?? NEW_GEOFENCE.Kind!;
  const userIds = Form.useWatch('UserIds', form);
  const departmentIds = Form.useWatch('DepartmentIds', form);
  const target = { id, enterpriseId: id ? undefined : working };

  return (
    <EditFormShell<GeofenceValues>
      title={id ? t('geofence.edit') : t('geofence.create')}
      backTo={GEOFENCE_LIST_PATH}
      form={form}
      load={id ? fence : undefined}
      toFormValues={toFormValues}
      initialValues={NEW_GEOFENCE}
      validate={(values) => validateGeofence(values, target)}
      save={(values) => save.mutateAsync(toSaveBody(values, target))}
      fieldNames={SHAPE_FIELD_NAMES}
    >
      <Form.Item name="Name" label={t('geofence.name')} required>
        <Input autoFocus count={{ show: true, max: GeofenceLimits.nameMax, strategy: countChars }} />
      </Form.Item>
      <Form.Item name="Kind" label={t('geofence.kind')}>
        <Segmented
          options={[
            { value: GeofenceKinds.polygon, label: t('geofence.kind_polygon') },
            { value: GeofenceKinds.circle, label: t('geofence.kind_circle') },
          ]}
        />
      </Form.Item>
      {/* A rule that always passes: each change of the shape clears the error shown for the old one. */}
      <Form.Item name="shape" label={t('geofence.shape')} required rules={[{ validator: () => Promise.resolve() }]}>
        <GeofenceShapeField kind={kind} editingId={id} userIds={userIds} departmentIds={departmentIds} />
      </Form.Item>
      <Form.Item label={t('geofence.alarms')} extra={t('geofence.alarms_hint')}>
        <Flex gap={16} align="center" wrap>
          <Form.Item name="Enter" valuePropName="checked" noStyle>
            <Checkbox>{t('geofence.enter')}</Checkbox>
          </Form.Item>
          <Form.Item name="Exit" valuePropName="checked" noStyle>
            <Checkbox>{t('geofence.exit')}</Checkbox>
          </Form.Item>
        </Flex>
      </Form.Item>
      <Form.Item name="DwellMinutes" label={t('geofence.dwell')} extra={t('geofence.dwell_hint')}>
        <InputNumber<number>
          min={0}
          max={GeofenceLimits.dwellMax}
          precision={0}
          suffix={t('geofence.minutes')}
          style={{ width: 180 }}
        />
      </Form.Item>
      <Form.Item name="UserIds" label={t('geofence.users')}>
        <UsersSelect enterpriseId={enterpriseId} />
      </Form.Item>
      <Form.Item name="DepartmentIds" label={t('geofence.departments')} extra={t('geofence.targets_hint')}>
        <DepartmentsSelect enterpriseId={enterpriseId} />
      </Form.Item>
    </EditFormShell>
  );
}
