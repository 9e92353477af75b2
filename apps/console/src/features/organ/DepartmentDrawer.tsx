import { MessageKeys, OrganLimits, organSaveSchema, UserLimits, type OrganDetail } from '@intercom/contract';
import { Form, Input, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { contractErrors } from '../../shared/form/contractErrors';
import { EditDrawer } from '../../shared/form/EditDrawer';
import { UserTypeSelect } from '../../shared/pickers/UserTypeSelect';
import { useOrgan, useSaveOrgan } from './api';
import { DepartmentSelect } from '../../shared/pickers/DepartmentSelect';

interface DepartmentValues {
  OSName: string;
  OSParentID: number;
  PriorityLevel: number;
  U_TypeID: number;
}

export type DepartmentTarget =
  { mode: 'create'; eid: number; parentId: number } | { mode: 'edit'; eid: number; id: number };

/** Create or edit one department: name (unique among its siblings), parent, priority, user type. */
export function DepartmentDrawer({ target, onClose }: { target: DepartmentTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  const editing = target?.mode === 'edit' ? target.id : undefined;
  const organ = useOrgan(editing);
  const save = useSaveOrgan();
  const eid = target?.eid;
  const toBody = (values: DepartmentValues) => ({
    OSID: editing ?? 0,
    E_ID: eid,
    OSName: values.OSName ?? '',
    OSParentID: values.OSParentID ?? 0,
    PriorityLevel: values.PriorityLevel ?? 0,
    U_TypeID: values.U_TypeID ?? 0,
  });
  return (
    <EditDrawer<DepartmentValues>
      open={target !== null}
      onClose={onClose}
      title={editing ? t('organ.edit') : t('organ.create')}
      load={editing ? organ : undefined}
      toFormValues={(row: OrganDetail) => row}
      initialValues={{
        OSParentID: target?.mode === 'create' ? target.parentId : 0,
        PriorityLevel: 0,
        U_TypeID: 0,
      }}
      validate={(values) => contractErrors(organSaveSchema, toBody(values))}
      save={(values) => save.mutateAsync(toBody(values))}
      messageFields={{ [MessageKeys.nameExists]: 'OSName' }}
      testId="department-drawer"
    >
      <Form.Item name="OSName" label={t('organ.name')} required>
        <Input maxLength={OrganLimits.nameMax} showCount autoFocus />
      </Form.Item>
      <Form.Item name="OSParentID" label={t('organ.parent')} required>
        <DepartmentSelect enterpriseId={eid} topLevel exclude={editing} />
      </Form.Item>
      <Form.Item name="PriorityLevel" label={t('users.priority')} extra={t('users.priority_hint')}>
        <InputNumber min={UserLimits.priorityMin} max={UserLimits.priorityMax} precision={0} />
      </Form.Item>
      <Form.Item name="U_TypeID" label={t('organ.user_type')}>
        <UserTypeSelect enterpriseId={eid} />
      </Form.Item>
    </EditDrawer>
  );
}
