import { EnterpriseLimits, enterpriseSaveSchema, MessageKeys, type EnterpriseRow } from '@intercom/contract';
import { DatePicker, Form, Input, InputNumber } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { contractErrors } from '../../shared/form/contractErrors';
import { EditDrawer } from '../../shared/form/EditDrawer';
import { useEnterprise, useSaveEnterprise } from './api';

interface EnterpriseValues {
  E_Code: string;
  E_Name: string;
  Quota: number | null;
  ExpireAt: Dayjs | null;
}

/** Create or edit a sub-enterprise: company code, name, licence quota, expiry. */
export function EnterpriseDrawer({
  target,
  onClose,
}: {
  target: { id: number } | 'create' | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const editing = target && target !== 'create' ? target.id : undefined;
  const enterprise = useEnterprise(editing);
  const save = useSaveEnterprise();
  const body = (values: EnterpriseValues) => ({
    E_ID: editing ?? 0,
    E_Code: (values.E_Code ?? '').trim(),
    E_Name: values.E_Name ?? '',
    Quota: values.Quota ?? 0,
    ExpireAt: values.ExpireAt ? values.ExpireAt.endOf('day').valueOf() : '',
  });
  return (
    <EditDrawer<EnterpriseValues>
      open={target !== null}
      onClose={onClose}
      title={editing ? t('enterprises.edit') : t('enterprises.create')}
      load={editing ? enterprise : undefined}
      toFormValues={(row: EnterpriseRow) => ({
        E_Code: row.E_Code,
        E_Name: row.E_Name,
        Quota: row.Quota,
        ExpireAt: row.ExpireAt === null ? null : dayjs(row.ExpireAt),
      })}
      initialValues={{ E_Code: '', E_Name: '', Quota: 0, ExpireAt: null }}
      validate={(values) => contractErrors(enterpriseSaveSchema, body(values))}
      save={(values) => save.mutateAsync(body(values))}
      messageFields={{
        [MessageKeys.enterpriseCodeExists]: 'E_Code',
        [MessageKeys.enterpriseQuotaBelowUsers]: 'Quota',
      }}
      testId="enterprise-drawer"
    >
      <Form.Item name="E_Code" label={t('enterprises.code')} required extra={t('enterprises.code_hint')}>
        <Input maxLength={EnterpriseLimits.codeMax} autoFocus={!editing} />
      </Form.Item>
      <Form.Item name="E_Name" label={t('enterprises.name')} required>
        <Input maxLength={EnterpriseLimits.nameMax} />
      </Form.Item>
      <Form.Item name="Quota" label={t('enterprises.quota')} extra={t('enterprises.quota_hint')}>
        <InputNumber min={0} max={EnterpriseLimits.quotaMax} precision={0} style={{ width: 200 }} />
      </Form.Item>
      <Form.Item name="ExpireAt" label={t('enterprises.expire')} extra={t('enterprises.expire_hint')}>
        <DatePicker allowClear style={{ width: 200 }} />
      </Form.Item>
    </EditDrawer>
  );
}
