import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Form, Input } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { ApiError, ClientErrorKeys } from '../api/ApiError';
import { FormDialog, type FormDialogProps } from './FormDialog';

// What the dialog under test shows (a real dialog takes them from t()).
const TITLE = 'Rename';
const FIELD = 'Name';

interface Values {
  name: string;
}

function renderDialog(props: Partial<FormDialogProps<Values, string>>) {
  const onSaved = vi.fn();
  const onCancel = vi.fn();
  const save = props.save ?? vi.fn(() => Promise.resolve('saved'));
  renderWithProviders(
    <FormDialog<Values, string>
      open
      title={TITLE}
      initialValues={{ name: '' }}
      save={save}
      onSaved={onSaved}
      onCancel={onCancel}
      {...props}
    >
      <Form.Item name="name" label={FIELD}>
        <Input />
      </Form.Item>
    </FormDialog>,
  );
  const type = (text: string) => fireEvent.change(screen.getByLabelText('Name'), { target: { value: text } });
  const ok = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  return { save, onSaved, onCancel, type, ok };
}

describe('FormDialog', () => {
  it('sends the typed values, says so and hands back the answer', async () => {
    const { save, onSaved, type, ok } = renderDialog({});
    expect(screen.getByRole('dialog', { name: 'Rename' })).toBeTruthy();
    type('Sales');
    ok();
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith('saved'));
    expect(save).toHaveBeenCalledWith({ name: 'Sales' });
    expect(await screen.findByText('Operation succeeded')).toBeTruthy();
  });

  it('shows the check failure under its field and sends nothing', async () => {
    const { save, ok } = renderDialog({
      validate: (values) => (values.name ? [] : [{ field: 'name', key: 'validation.required' }]),
    });
    ok();
    expect(await screen.findByText('Required')).toBeTruthy();
    expect(save).not.toHaveBeenCalled();
  });

  it("puts the server's field errors under the fields", async () => {
    const { onSaved, type, ok } = renderDialog({
      save: () =>
        Promise.reject(
          new ApiError({
            kind: 'api',
            code: 4000,
            key: 'common.oper_failed',
            fields: [{ field: 'name', key: 'validation.too_long' }],
          }),
        ),
    });
    type('x'.repeat(30));
    ok();
    expect(await screen.findByText('Too long')).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Rename' })).toBeTruthy();
  });

  it("shows a refusal without fields in the dialog's alert", async () => {
    const { ok } = renderDialog({
      failureAs: 'alert',
      save: () => Promise.reject(new ApiError({ kind: 'api', code: 4003, key: 'common.oper_failed' })),
    });
    ok();
    expect((await screen.findByRole('alert')).textContent).toContain('Operation failed');
  });

  it('adds nothing to a connection failure the API client already reported', async () => {
    const save = vi.fn(() => Promise.reject(new ApiError({ kind: 'network', key: ClientErrorKeys.network })));
    const { onSaved, ok } = renderDialog({ failureAs: 'alert', save });
    ok();
    await waitFor(() => expect(save).toHaveBeenCalled());
    await waitFor(() => expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Save' }).disabled).toBe(false));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText('Connection to server failed')).toBeNull();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('Cancel closes without sending', () => {
    const { save, onCancel } = renderDialog({});
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledOnce();
    expect(save).not.toHaveBeenCalled();
  });
});
