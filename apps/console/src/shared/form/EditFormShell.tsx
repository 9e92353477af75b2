import { MessageKeys, type FieldError } from '@intercom/contract';
import { Button, Card, Flex, Form, Result, Skeleton } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../api/ApiError';
import { useErrorMessage } from '../api/useErrorMessage';
import { applyServerErrors } from './applyServerErrors';
import { useToast } from '../ui/ToastContext';

/** What the shell needs of a load query (a TanStack `UseQueryResult` fits). */
export interface EditFormLoad<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

export interface EditFormShellProps<T extends object> {
  title: ReactNode;
  /** Where Cancel and a successful save go. */
  backTo: string;
  /** The object being edited; absent when creating. */
  load?: EditFormLoad<T>;
  initialValues?: Partial<T>;
  /** The contract validators of the entity: `{field, key}` failures shown under the fields. */
  validate?: (values: T) => FieldError[];
  /** Saves (e.g. a mutation's mutateAsync); a thrown 4000 puts its field errors under the fields. */
  save: (values: T) => Promise<unknown>;
  /** Server field name -> form field name, where they differ. */
  fieldNames?: Record<string, string>;
  children: ReactNode;
}

/**
 * The one edit form of the console (STYLE.md): loading, load failure, client and server
 * validation under the fields, saving, the success toast and going back. A page declares fields.
 */
export function EditFormShell<T extends object>(props: EditFormShellProps<T>) {
  const { title, backTo, load } = props;
  const { t } = useTranslation();
  const navigate = useNavigate();
  const errorMessage = useErrorMessage();

  if (load?.isPending) {
    return (
      <Card title={title}>
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  }
  if (load?.isError || (load && !load.data)) {
    return (
      <Card title={title}>
        <Result
          status="error"
          title={t('form.load_failed')}
          subTitle={load.error ? errorMessage(load.error) : undefined}
          extra={[
            <Button key="retry" type="primary" onClick={() => void load.refetch()}>
              {t('common.retry')}
            </Button>,
            <Button key="back" onClick={() => navigate(backTo)}>
              {t('common.back')}
            </Button>,
          ]}
        />
      </Card>
    );
  }
  return <EditFormBody {...props} />;
}

/** The form itself, mounted once the object is there (so its initial values are the loaded ones). */
function EditFormBody<T extends object>({
  title,
  backTo,
  load,
  initialValues,
  validate,
  save,
  fieldNames,
  children,
}: EditFormShellProps<T>) {
  const { t } = useTranslation();
  const message = useToast();
  const navigate = useNavigate();
  const errorMessage = useErrorMessage();
  const [form] = Form.useForm<T>();
  const [saving, setSaving] = useState(false);

  const submit = async (values: T) => {
    const failures = validate?.(values) ?? [];
    if (failures.length > 0) {
      form.setFields(failures.map((f) => ({ name: f.field as never, errors: [t(f.key)] })));
      return;
    }
    setSaving(true);
    try {
      await save(values);
      message.success(t(MessageKeys.ok));
      navigate(backTo);
    } catch (error) {
      if (applyServerErrors(form, error, (key) => t(key), fieldNames)) return;
      if (isApiError(error) && (error.connectionFailed || error.sessionEnded)) return;
      message.error({ content: errorMessage(error) || t(MessageKeys.failed), duration: 5 });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={title}>
      <Form<T>
        form={form}
        layout="vertical"
        style={{ maxWidth: 640 }}
        initialValues={(load?.data ?? initialValues) as T}
        onFinish={(values) => void submit(values)}
        disabled={saving}
      >
        {children}
        <Flex gap={8}>
          <Button type="primary" htmlType="submit" loading={saving}>
            {t('common.save')}
          </Button>
          <Button onClick={() => navigate(backTo)} disabled={false}>
            {t('common.cancel')}
          </Button>
        </Flex>
      </Form>
    </Card>
  );
}
