import { MessageKeys, type FieldError } from '@intercom/contract';
import { Alert, Form, Modal, type FormInstance } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { wasShown } from '../api/ApiError';
import { useErrorMessage } from '../api/useErrorMessage';
import { useToast } from '../ui/ToastContext';
import { applyServerErrors, fieldPath } from './applyServerErrors';

export interface FormDialogProps<T extends object, R> {
  open: boolean;
  title: ReactNode;
  /** The OK button; "Save" when absent. */
  okText?: string;
  /** `data-testid` of the dialog's content. */
  testId?: string;
  /** The form instance, when the fields need it (`Form.useWatch`, rules reading other fields). */
  form?: FormInstance<T>;
  initialValues?: Partial<T>;
  /**
   * Keep the fields mounted while the dialog is closed (emptied after it closes) instead of
   * building them anew, from `initialValues`, each time it opens.
   */
  keepMounted?: boolean;
  /** Text above the fields. */
  intro?: ReactNode;
  /**
   * The check before sending: `{field, key}` failures go under the fields; one message key is a
   * failure of the whole form. Nothing (or `[]`) sends.
   */
  validate?: (values: T) => FieldError[] | string | undefined;
  /** Sends (e.g. a mutation's mutateAsync); a thrown 4000 puts its field errors under the fields. */
  save: (values: T) => Promise<R>;
  /** The toast after a successful save; "operation succeeded" when absent. */
  successText?: (answer: R) => string;
  /** After the success toast: usually closes the dialog. */
  onSaved: (answer: R) => void;
  /** Cancel, Esc, the close button or a click beside the dialog. */
  onCancel: () => void;
  /** Where a failure the fields cannot show is said: an Alert under the fields or a toast. */
  failureAs?: 'alert' | 'toast';
  /** Server field name -> form field name, where they differ. */
  fieldNames?: Record<string, string>;
  /** Server message key -> form field it is about (an answer without field errors). */
  messageFields?: Record<string, string>;
  children: ReactNode;
}

/**
 * The one small form dialog of the console (STYLE.md): OK submits the form (so does Enter in a
 * field), Esc and Cancel close it; the check before sending, saving with the OK button loading,
 * server field errors under the fields, the success toast, and a failure in an Alert or a toast.
 * Connection failures and ended sessions were already shown by the API client. A dialog declares
 * its title, fields, check and what it sends.
 */
export function FormDialog<T extends object, R = unknown>({
  open,
  title,
  okText,
  testId,
  form: givenForm,
  initialValues,
  keepMounted = false,
  intro,
  validate,
  save,
  successText,
  onSaved,
  onCancel,
  failureAs = 'toast',
  fieldNames,
  messageFields,
  children,
}: FormDialogProps<T, R>) {
  const { t } = useTranslation();
  const message = useToast();
  const errorMessage = useErrorMessage();
  const [ownForm] = Form.useForm<T>();
  const form = givenForm ?? ownForm;
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const translate = (key: string) => t(key);

  const fail = (text: string) => {
    if (failureAs === 'alert') setFailure(text);
    else message.error({ content: text, duration: 5 });
  };

  const submit = async (values: T) => {
    if (saving) return;
    setFailure(null);
    // The errors this dialog put under fields last time (rules passed, or we would not be here).
    form.setFields(
      form
        .getFieldsError()
        .filter((field) => field.errors.length > 0)
        .map((field) => ({ name: field.name as never, errors: [] })),
    );
    const problem = validate?.(values);
    if (typeof problem === 'string') {
      fail(t(problem));
      return;
    }
    if (problem && problem.length > 0) {
      form.setFields(problem.map((p) => ({ name: fieldPath(p.field) as never, errors: [t(p.key)] })));
      return;
    }
    setSaving(true);
    try {
      const answer = await save(values);
      message.success(successText ? successText(answer) : t(MessageKeys.ok));
      onSaved(answer);
    } catch (error) {
      if (applyServerErrors(form, error, translate, fieldNames, messageFields)) return;
      if (wasShown(error)) return;
      fail(errorMessage(error) || t(MessageKeys.failed));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      okText={okText ?? t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onCancel}
      afterClose={() => {
        if (keepMounted) form.resetFields();
        setFailure(null);
      }}
      forceRender={keepMounted}
      destroyOnHidden={!keepMounted}
    >
      <div data-testid={testId}>
        {intro}
        <Form<T>
          form={form}
          layout="vertical"
          initialValues={initialValues}
          onFinish={(values) => void submit(values)}
          disabled={saving}
          // Built anew at each opening: start from this opening's initial values, not the last one's.
          clearOnDestroy={!keepMounted}
        >
          {children}
          {/* Enter in a field submits, as in any form (the OK button is outside it). */}
          <button type="submit" hidden aria-hidden tabIndex={-1} />
        </Form>
        {failure && <Alert type="error" showIcon title={failure} />}
      </div>
    </Modal>
  );
}
