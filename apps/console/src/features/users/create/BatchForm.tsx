import { batchNumbers, Limits, MessageKeys, UserLimits, userBatchSchema } from '@intercom/contract';
import { Alert, Button, Col, Form, Input, InputNumber, Row, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { contractErrors } from '../../../shared/form/contractErrors';
import { useBatchAddUsers } from '../api';
import { CreationDone, CreationState } from './CreationStatus';
import { useCreationFlow } from './useCreationFlow';
import { PasswordFields } from './PasswordFields';
import { SharedUserFields } from './SharedUserFields';
import { SHARED_DEFAULTS, sharedBody, type SharedValues } from './sharedValues';

interface BatchValues extends SharedValues {
  prefix: string;
  start: string;
  count: number | null;
  Password: string;
  ConfirmPassword: string;
}

const DIGITS = new RegExp(`^\\d{${UserLimits.phoneMin},${UserLimits.startMaxDigits}}$`);

/** The accounts a batch would create (empty while the start number is not valid). */
function planned(start: string | undefined, count: number | null | undefined): string[] {
  const from = (start ?? '').trim();
  if (!DIGITS.test(from) || !count || count < 1 || count > Limits.batchCreateMax) return [];
  return batchNumbers(from, count);
}

/**
 * Up to 99 users named prefix + number, with the number as the phone (its width kept), one
 * password for all. The server creates all or none.
 */
export function BatchForm({
  enterpriseId,
  balance,
  onBack,
}: {
  enterpriseId: number | undefined;
  balance: number | undefined;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<BatchValues>();
  const add = useBatchAddUsers();
  const { creation, running, passes, create, again } = useCreationFlow(form);
  const [sent, setSent] = useState<{ prefix: string; numbers: string[] }>({ prefix: '', numbers: [] });
  const prefix = Form.useWatch('prefix', form) ?? '';
  const start = Form.useWatch('start', form);
  const count = Form.useWatch('count', form);
  const numbers = planned(start, count);
  const short = balance !== undefined && (count ?? 0) > balance;

  const submit = async (values: BatchValues) => {
    const body = {
      ...sharedBody(values, enterpriseId),
      prefix: values.prefix ?? '',
      start: (values.start ?? '').trim(),
      count: values.count ?? '',
      Password: values.Password ?? '',
      ConfirmPassword: values.ConfirmPassword ?? '',
    };
    if (!passes(contractErrors(userBatchSchema, body))) return;
    setSent({ prefix: body.prefix, numbers: planned(body.start, Number(body.count)) });
    await create(Number(body.count), () => add.mutateAsync(body));
  };

  if (creation.state === 'done') {
    return <CreationDone result={creation.result} onBack={onBack} onAgain={again} />;
  }

  return (
    <Form<BatchValues>
      form={form}
      layout="vertical"
      initialValues={{ ...SHARED_DEFAULTS, prefix: '', start: '', count: 10, Password: '', ConfirmPassword: '' }}
      onFinish={(values) => void submit(values)}
      disabled={running}
      data-testid="batch-form"
    >
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Form.Item name="prefix" label={t('batch.prefix')} required extra={t('batch.prefix_hint')}>
            <Input maxLength={Limits.userPrefixMax} showCount />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="start" label={t('batch.start')} required extra={t('batch.start_hint')}>
            <Input maxLength={UserLimits.startMaxDigits} inputMode="numeric" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            name="count"
            label={t('batch.count')}
            required
            extra={t('batch.count_hint', { max: Limits.batchCreateMax })}
          >
            <InputNumber min={1} max={Limits.batchCreateMax} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      {numbers.length > 0 && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="batch-preview"
          title={t('batch.preview', {
            count: numbers.length,
            first: `${prefix}${numbers[0]}`,
            last: `${prefix}${numbers.at(-1)}`,
            firstPhone: numbers[0],
            lastPhone: numbers.at(-1),
          })}
        />
      )}
      <PasswordFields label={t('batch.password')} hint={t('users.password_rule')} required />
      <SharedUserFields enterpriseId={enterpriseId} />
      {short && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('batch.shortage_title')}
          description={t(MessageKeys.accountShortage, { balance, needed: count ?? 0 })}
          data-testid="account-shortage"
        />
      )}
      <CreationState
        creation={creation}
        rowLabel={(i) => `${sent.prefix}${sent.numbers[i] ?? ''} · ${sent.numbers[i] ?? ''}`}
      />
      <Button type="primary" htmlType="submit" loading={running} disabled={short}>
        {t('batch.submit', { count: numbers.length || count || 0 })}
      </Button>
      <Typography.Text type="secondary" style={{ marginInlineStart: 12 }}>
        {t('batch.all_or_nothing')}
      </Typography.Text>
    </Form>
  );
}
