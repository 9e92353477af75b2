import { MessageKeys, type FieldError } from '@intercom/contract';
import { Button, Card, Flex, Form, Result, type FormInstance } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { wasShown } from '../api/ApiError';
import { useErrorMessage } from '../api/useErrorMessage';
import { useToast } from '../ui/ToastContext';
import { applyServerErrors, fieldPath } from './applyServerErrors';
import { LoadingSkeleton } from '../ui/LoadingSkeleton';

/** What the shell needs of a load query (a TanStack `UseQueryResult` fits). */
export interface EditFormLoad<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

export interface EditFormShellProps<T extends object> {
  title?: ReactNode;
  /** Page forms: where Cancel and a successful save go. */
  backTo?: string;
  /** Forms in a drawer or dialog: called after Cancel (false) or a successful save (true). */
  onClose?: (saved: boolean) => void;
  /** Inside a drawer or dialog that shows the title itself: no card around the form. */
  bare?: boolean;
  /** The object being edited; absent when creating. */
  load?: EditFormLoad<unknown>;
  /** Form values of the loaded object (dates as dayjs, ...); defaults to the object itself. */
  toFormValues?: (data: never) => Partial<T>;
  initialValues?: Partial<T>;
  /** The contract validators of the entity: `{field, key}` failures shown under the fields. */
  validate?: (values: T) => FieldError[];
  /** Saves (e.g. a mutation's mutateAsync); a thrown 4000 puts its field errors under the fields. */
  save: (values: T) => Promise<unknown>;
  /**
   * Asked after validation, before saving, when the save would replace something (a dialog):
   * resolves false to save nothing and keep the form as it is.
   */
  confirmSave?: (values: T) => Promise<boolean>;
  /** Server field name -> form field name, where they differ. */
  fieldNames?: Record<string, string>;
  /** Server message key -> form field it is about (a 4009 "name already exists" without fields). */
  messageFields?: Record<string, string>;
  /** The form instance, when the fields need `Form.useWatch`. */
  form?: FormInstance<T>;
  submitText?: string;
  showCancel?: boolean;
  children: ReactNode;
}

/**
 * The one edit form of the console (STYLE.md): loading, load failure, client and server
 * validation under the fields, saving, the success toast and going back (or closing the drawer
 * it sits in). A page declares fields.
 */
export function EditFormShell<T extends object>(props: EditFormShellProps<T>) {
  const { title, backTo, onClose, load, bare } = props;
  const { t } = useTranslation();
  const navigate = useNavigate();
  const errorMessage = useErrorMessage();
  const frame = (content: ReactNode) => (bare ? content : <Card title={title}>{content}</Card>);

  if (load?.isPending) return frame(<LoadingSkeleton rows={6} />);
  if (load?.isError || (load && !load.data)) {
    return frame(
      <Result
        status="error"
        title={t('form.load_failed')}
        subTitle={load.error ? errorMessage(load.error) : undefined}
        extra={[
          <Button key="retry" type="primary" onClick={() => void load.refetch()}>
            {t('common.retry')}
          </Button>,
          <Button key="back" onClick={() => (onClose ? onClose(false) : backTo && void navigate(backTo))}>
            {t('common.back')}
          </Button>,
        ]}
      />,
    );
  }
  return frame(<EditFormBody {...props} />);
}

/** The form itself, mounted once the object is there (so its initial values are the loaded ones). */
function EditFormBody<T extends object>({
  backTo,
  onClose,
  bare,
  load,
  toFormValues,
  initialValues,
  validate,
  save,
  confirmSave,
  fieldNames,
  messageFields,
  form: givenForm,
  submitText,
  showCancel = true,
  children,
}: EditFormShellProps<T>) {
  const { t, i18n } = useTranslation();
  const message = useToast();
  const navigate = useNavigate();
  const errorMessage = useErrorMessage();
  const [ownForm] = Form.useForm<T>();
  const form = givenForm ?? ownForm;
  const [saving, setSaving] = useState(false);
  // A contract message that is not a key of ours (a library default) still reads as a sentence.
  const translate = (key: string) => (i18n.exists(key) ? t(key) : t(MessageKeys.invalid));

  const leave = (saved: boolean) => {
    if (onClose) onClose(saved);
    else if (backTo) void navigate(backTo);
  };

  const submit = async (values: T) => {
    const failures = validate?.(values) ?? [];
    if (failures.length > 0) {
      const fields = failures.map((f) => ({
        name: fieldPath(fieldNames?.[f.field] ?? f.field) as never,
        errors: [translate(f.key)],
      }));
      form.setFields(fields);
      // The form may be long (a drawer): show the first problem.
      form.scrollToField(fields[0]!.name, { block: 'center' });
      return;
    }
    setSaving(true);
    try {
      if (confirmSave && !(await confirmSave(values))) return;
      await save(values);
      message.success(t(MessageKeys.ok));
      leave(true);
    } catch (error) {
      if (applyServerErrors(form, error, translate, fieldNames, messageFields)) return;
      if (wasShown(error)) return;
      message.error({ content: errorMessage(error) || t(MessageKeys.failed), duration: 5 });
    } finally {
      setSaving(false);
    }
  };

  const loaded = load?.data === undefined ? undefined : toFormValues ? toFormValues(load.data as never) : load.data;
  return (
    <Form<T>
      form={form}
      layout="vertical"
      style={bare ? undefined : { maxWidth: 640 }}
      initialValues={{ ...initialValues, ...(loaded as Partial<T> | undefined) }}
      onFinish={(values) => void submit(values)}
      disabled={saving}
      scrollToFirstError
    >
      {children}
      <Flex gap={8} justify={bare ? 'flex-end' : 'flex-start'}>
        <Button type="primary" htmlType="submit" loading={saving}>
          {submitText ?? t('common.save')}
        </Button>
        {showCancel && (backTo || onClose) && (
          <Button onClick={() => leave(false)} disabled={false}>
            {t('common.cancel')}
          </Button>
        )}
      </Flex>
    </Form>
  );
}
