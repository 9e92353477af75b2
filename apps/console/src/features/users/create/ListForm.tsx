import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Limits, MessageKeys, UserLimits, userListSchema, type FieldError } from '@intercom/contract';
import { Alert, Button, Form, Input, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, isApiError } from '../../../shared/api/ApiError';
import { contractErrors } from '../../../shared/form/contractErrors';
import { useListAddUsers } from '../api';
import { CreationDone, CreationState } from './CreationStatus';
import { useCreationFlow } from './useCreationFlow';
import { PasswordFields } from './PasswordFields';
import { SharedUserFields } from './SharedUserFields';
import { SHARED_DEFAULTS, sharedBody, type SharedValues } from './sharedValues';

interface ListRow {
  UserName?: string;
  MobilePhone?: string;
  ICCID?: string;
  Password?: string;
}

interface ListValues extends SharedValues {
  rows: ListRow[];
  Password: string;
  ConfirmPassword: string;
}

const EMPTY_ROW: ListRow = { UserName: '', MobilePhone: '', ICCID: '', Password: '' };

const isBlank = (row: ListRow) =>
  !row.UserName?.trim() && !row.MobilePhone?.trim() && !row.ICCID?.trim() && !row.Password;

/** Row `i` of what was sent is row `sentRows[i]` of the table (blank rows are not sent). */
function remap(errors: FieldError[], sentRows: number[]): FieldError[] {
  return errors.map((error) => {
    const match = /^rows\.(\d+)\.(.+)$/.exec(error.field);
    if (!match) return error;
    return { ...error, field: `rows.${sentRows[Number(match[1])] ?? match[1]}.${match[2]}` };
  });
}

/** Up to 20 users typed into a table; a row without a password takes the shared one. All or nothing. */
export function ListForm({ enterpriseId, onBack }: { enterpriseId: number | undefined; onBack: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ListValues>();
  const add = useListAddUsers();
  const { creation, running, passes, create, again } = useCreationFlow(form);
  const rows = Form.useWatch('rows', form) ?? [];

  const submit = async (values: ListValues) => {
    const all = values.rows ?? [];
    const kept = all.map((row, index) => ({ row, index })).filter(({ row }) => !isBlank(row));
    const sent = kept.map(({ index }) => index);
    if (kept.length === 0) {
      form.setFields([{ name: ['rows', 0, 'UserName'], errors: [t('batch.list_empty')] }]);
      return;
    }
    if ((values.Password ?? '') !== (values.ConfirmPassword ?? '')) {
      form.setFields([{ name: 'ConfirmPassword', errors: [t(MessageKeys.psdNotEqual)] }]);
      return;
    }
    const body = {
      ...sharedBody(values, enterpriseId),
      Password: values.Password || undefined,
      rows: kept.map(({ row }) => ({
        UserName: row.UserName ?? '',
        MobilePhone: (row.MobilePhone ?? '').trim(),
        ICCID: row.ICCID ?? '',
        Password: row.Password || undefined,
      })),
    };
    if (!passes(remap(contractErrors(userListSchema, body), sent))) return;
    await create(
      kept.length,
      () => add.mutateAsync(body),
      (error) =>
        isApiError(error)
          ? new ApiError({
              kind: error.kind,
              code: error.code,
              key: error.key,
              params: error.params,
              fields: remap(error.fields, sent),
              status: error.status,
              requestId: error.requestId,
            })
          : error,
    );
  };

  if (creation.state === 'done') {
    return <CreationDone result={creation.result} onBack={onBack} onAgain={again} />;
  }

  return (
    <Form<ListValues>
      form={form}
      layout="vertical"
      initialValues={{ ...SHARED_DEFAULTS, rows: [EMPTY_ROW, EMPTY_ROW, EMPTY_ROW], Password: '', ConfirmPassword: '' }}
      onFinish={(values) => void submit(values)}
      disabled={running}
      data-testid="list-form"
    >
      <Form.List name="rows">
        {(fields, { add: addRow, remove }) => (
          <>
            <Table
              size="small"
              pagination={false}
              dataSource={fields}
              rowKey="key"
              scroll={{ x: 'max-content' }}
              style={{ marginBottom: 12 }}
              columns={[
                { key: 'n', title: t('batch.row'), width: 48, render: (_v, _field, index) => index + 1 },
                {
                  key: 'UserName',
                  title: t('users.name'),
                  render: (_v, field) => (
                    <Form.Item name={[field.name, 'UserName']} style={{ margin: 0, minWidth: 140 }}>
                      <Input maxLength={UserLimits.nameMax} aria-label={t('users.name')} />
                    </Form.Item>
                  ),
                },
                {
                  key: 'MobilePhone',
                  title: t('users.phone'),
                  render: (_v, field) => (
                    <Form.Item name={[field.name, 'MobilePhone']} style={{ margin: 0, minWidth: 140 }}>
                      <Input maxLength={UserLimits.phoneMax} inputMode="numeric" aria-label={t('users.phone')} />
                    </Form.Item>
                  ),
                },
                {
                  key: 'ICCID',
                  title: t('batch.iccid_optional'),
                  render: (_v, field) => (
                    <Form.Item name={[field.name, 'ICCID']} style={{ margin: 0, minWidth: 200 }}>
                      <Input maxLength={Limits.iccidMaxLength + 4} aria-label={t('users.iccid')} />
                    </Form.Item>
                  ),
                },
                {
                  key: 'Password',
                  title: t('batch.row_password'),
                  render: (_v, field) => (
                    <Form.Item name={[field.name, 'Password']} style={{ margin: 0, minWidth: 140 }}>
                      <Input.Password
                        autoComplete="new-password"
                        maxLength={Limits.passwordMax}
                        aria-label={t('batch.row_password')}
                      />
                    </Form.Item>
                  ),
                },
                {
                  key: 'remove',
                  width: 48,
                  render: (_v, field) => (
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      disabled={fields.length <= 1}
                      onClick={() => remove(field.name)}
                      aria-label={t('batch.remove_row', { row: field.name + 1 })}
                    />
                  ),
                },
              ]}
            />
            <Button
              icon={<PlusOutlined />}
              onClick={() => addRow({ ...EMPTY_ROW })}
              disabled={fields.length >= Limits.listCreateMax}
              style={{ marginBottom: 16 }}
            >
              {t('batch.add_row', { count: fields.length, max: Limits.listCreateMax })}
            </Button>
          </>
        )}
      </Form.List>
      <PasswordFields label={t('batch.shared_password')} hint={t('batch.shared_password_hint')} required={false} />
      <SharedUserFields enterpriseId={enterpriseId} />
      <CreationState
        creation={creation}
        rowLabel={(i) => (rows[i] ? `${rows[i].UserName ?? ''} · ${rows[i].MobilePhone ?? ''}` : '')}
      />
      <Button type="primary" htmlType="submit" loading={running}>
        {t('batch.submit_list')}
      </Button>
      <Typography.Text type="secondary" style={{ marginInlineStart: 12 }}>
        {t('batch.all_or_nothing')}
      </Typography.Text>
      {rows.length > Limits.listCreateMax && <Alert type="error" title={t(MessageKeys.listTooMany)} />}
    </Form>
  );
}
