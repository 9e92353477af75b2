import { SafetyLimits } from '@intercom/contract';
import { Form, InputNumber, Modal, Segmented, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EditFormShell } from '../../shared/form/EditFormShell';
import { useSession } from '../../shared/session/SessionContext';
import { useWorkingEnterprise } from '../enterprises';
import { DepartmentsSelect } from '../../shared/pickers/DepartmentsSelect';
import { UsersSelect } from '../../shared/pickers/UsersSelect';
import { fetchSafetySetting, useSafetySetting, useSaveSafety } from './api';
import { formatDateTime } from '../../shared/format/formatDateTime';
import { SAFETY_LIST_PATH } from './paths';
import { NEW_SAFETY, parseSafetyKey, toFormValues, toSaveBody, validateSafety, type SafetyValues } from './safetyForm';

/** A rule that always passes: each change of a number clears the error shown for the old one. */
const CLEARS_ERROR = [{ validator: () => Promise.resolve() }];

function MinutesField({ name, label, hint }: { name: keyof SafetyValues; label: string; hint: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item name={name} label={label} extra={hint} required rules={CLEARS_ERROR}>
      <InputNumber<number> precision={0} suffix={t('safety.minutes')} style={{ width: 200 }} />
    </Form.Item>
  );
}

/**
 * /main/safety/edit[?key=]: check-in and no-movement settings for chosen users, departments or the
 * whole enterprise (new), or one stored row's numbers (edit: whom it applies to stays).
 */
export default function SafetyEditPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const key = parseSafetyKey(search.get('key'));
  const row = useSafetySetting(key);
  const { info } = useSession();
  const working = useWorkingEnterprise().data?.working.E_ID ?? info.E_ID;
  const enterpriseId = key ? row.data?.E_ID : working;
  const save = useSaveSafety();
  const [form] = Form.useForm<SafetyValues>();
  const scope = Form.useWatch('Scope', form) ?? NEW_SAFETY.Scope;
  const [modal, modalHolder] = Modal.useModal();

  /** New settings for the whole enterprise replace the ones it has: the person says so first. */
  const confirmReplace = async (values: SafetyValues): Promise<boolean> => {
    if (key || values.Scope !== 'enterprise' || !enterpriseId) return true;
    const existing = await fetchSafetySetting({ kind: 'enterprise', id: enterpriseId });
    if (!existing) return true;
    return new Promise<boolean>((resolve) => {
      modal.confirm({
        title: t('safety.replace_title'),
        content: t('safety.replace_content', { time: formatDateTime(existing.UpdatedAt) }),
        okText: t('safety.replace_ok'),
        okButtonProps: { danger: true },
        cancelText: t('common.cancel'),
        onOk: () => resolve(true),
        onCancel: () => resolve(false),
      });
    });
  };

  return (
    <>
      {/* Outside the form: a form that is saving disables what it holds, the dialog's buttons too. */}
      {modalHolder}
      <EditFormShell<SafetyValues>
        title={key ? t('safety.edit') : t('safety.create')}
        backTo={SAFETY_LIST_PATH}
        form={form}
        load={key ? row : undefined}
        toFormValues={toFormValues}
        initialValues={NEW_SAFETY}
        validate={(values) => validateSafety(values, enterpriseId)}
        save={(values) => save.mutateAsync(toSaveBody(values, enterpriseId))}
        confirmSave={confirmReplace}
      >
        {key ? (
          <Form.Item label={t('safety.applies_to')}>
            <Typography.Text strong data-testid="safety-target">
              {t(`safety.kind_${key.kind}`)}: {row.data?.Name || `#${key.id}`}
            </Typography.Text>
          </Form.Item>
        ) : (
          <>
            <Form.Item name="Scope" label={t('safety.applies_to')}>
              <Segmented
                options={[
                  { value: 'department', label: t('safety.kind_department') },
                  { value: 'user', label: t('safety.kind_user') },
                  { value: 'enterprise', label: t('safety.kind_enterprise') },
                ]}
              />
            </Form.Item>
            <Form.Item
              name="DepartmentIds"
              label={t('safety.departments')}
              hidden={scope !== 'department'}
              required
              rules={CLEARS_ERROR}
            >
              <DepartmentsSelect enterpriseId={enterpriseId} />
            </Form.Item>
            <Form.Item name="UserIds" label={t('safety.users')} hidden={scope !== 'user'} required rules={CLEARS_ERROR}>
              <UsersSelect enterpriseId={enterpriseId} />
            </Form.Item>
            {scope === 'enterprise' && (
              <Typography.Paragraph type="secondary">{t('safety.enterprise_hint')}</Typography.Paragraph>
            )}
          </>
        )}
        <MinutesField
          name="CheckInMinutes"
          label={t('safety.check_in')}
          hint={t('safety.check_in_hint', { max: SafetyLimits.checkInMax })}
        />
        <MinutesField
          name="GraceMinutes"
          label={t('safety.grace')}
          hint={t('safety.grace_hint', { min: SafetyLimits.graceMin, max: SafetyLimits.graceMax })}
        />
        <MinutesField
          name="NoMovementMinutes"
          label={t('safety.no_movement')}
          hint={t('safety.no_movement_hint', { max: SafetyLimits.noMovementMax })}
        />
        <Form.Item
          name="NoMovementMeters"
          label={t('safety.no_movement_meters')}
          extra={t('safety.meters_hint', {
            min: SafetyLimits.noMovementMetersMin,
            max: SafetyLimits.noMovementMetersMax,
          })}
          required
          rules={CLEARS_ERROR}
        >
          <InputNumber<number> precision={0} suffix={t('safety.meters')} style={{ width: 200 }} />
        </Form.Item>
      </EditFormShell>
    </>
  );
}
