import type { CreatedUsers, FieldError } from '@intercom/contract';
import type { FormInstance } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { wasShown } from '../../../shared/api/ApiError';
import { applyServerErrors, fieldPath } from '../../../shared/form/applyServerErrors';
import type { Creation } from './CreationStatus';

/**
 * The steps both user-creation forms (number range and typed list) go through: the contract check
 * under the fields, one all-or-nothing request with its progress, then the report of what was
 * created or why nothing was; "create more" starts again from an empty form.
 */
export function useCreationFlow<V extends object>(form: FormInstance<V>) {
  const { t } = useTranslation();
  const [creation, setCreation] = useState<Creation>({ state: 'idle' });

  /** Puts the contract's failures under their fields; true when there were none. */
  const passes = (errors: FieldError[]): boolean => {
    form.setFields(errors.map((e) => ({ name: fieldPath(e.field) as never, errors: [t(e.key)] })));
    return errors.length === 0;
  };

  /** Sends `count` users; `toFormError` moves the server's row numbers onto the form's rows. */
  const create = async (
    count: number,
    send: () => Promise<CreatedUsers | undefined>,
    toFormError: (error: unknown) => unknown = (error) => error,
  ) => {
    setCreation({ state: 'running', count, startedAt: Date.now() });
    try {
      const result = await send();
      setCreation(result ? { state: 'done', result } : { state: 'idle' });
    } catch (caught) {
      if (wasShown(caught)) {
        setCreation({ state: 'idle' });
        return;
      }
      const error = toFormError(caught);
      applyServerErrors(form, error, (key) => t(key));
      setCreation({ state: 'failed', error });
    }
  };

  const again = () => {
    form.resetFields();
    setCreation({ state: 'idle' });
  };

  return { creation, running: creation.state === 'running', passes, create, again };
}
