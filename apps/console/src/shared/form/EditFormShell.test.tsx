import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Form, Input } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { ApiError } from '../api/ApiError';
import { EditFormShell, type EditFormLoad, type EditFormShellProps } from './EditFormShell';

// What the form under test shows (a real form takes them from t()).
const TITLE = 'Department';
const FIELD = 'Name';

interface Values {
  name: string;
}

const loaded = (data: Values | undefined, state: Partial<EditFormLoad<Values>> = {}): EditFormLoad<Values> => ({
  data,
  isPending: false,
  isError: false,
  error: null,
  refetch: vi.fn(),
  ...state,
});

function renderForm(props: Partial<EditFormShellProps<Values>>) {
  const onClose = vi.fn();
  const save = props.save ?? vi.fn(() => Promise.resolve(undefined));
  renderWithProviders(
    <EditFormShell<Values> title={TITLE} onClose={onClose} initialValues={{ name: '' }} save={save} {...props}>
      <Form.Item name="name" label={FIELD}>
        <Input />
      </Form.Item>
    </EditFormShell>,
  );
  return { save, onClose };
}

describe('EditFormShell', () => {
  it('fills the fields with the loaded object and saves the edited values', async () => {
    const { save, onClose } = renderForm({ load: loaded({ name: 'Sales' }) });
    const name = screen.getByLabelText<HTMLInputElement>('Name');
    expect(name.value).toBe('Sales');
    fireEvent.change(name, { target: { value: 'Sales east' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(save).toHaveBeenCalledWith({ name: 'Sales east' });
    expect(await screen.findByText('Operation succeeded')).toBeTruthy();
  });

  it('shows a load failure with a way to try again instead of an empty form', () => {
    const refetch = vi.fn();
    renderForm({
      load: loaded(undefined, {
        isError: true,
        error: new ApiError({ kind: 'api', code: 4004, key: 'common.oper_failed' }),
        refetch,
      }),
    });
    expect(screen.getByText('Could not load the data')).toBeTruthy();
    expect(screen.getByText('Operation failed')).toBeTruthy();
    expect(screen.queryByLabelText('Name')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(refetch).toHaveBeenCalledOnce();
  });

  it('shows the contract check under the field and sends nothing', async () => {
    const { save } = renderForm({
      validate: (values) => (values.name ? [] : [{ field: 'name', key: 'validation.required' }]),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Required')).toBeTruthy();
    expect(save).not.toHaveBeenCalled();
  });

  it('puts a server refusal about a field under that field and stays open', async () => {
    const { onClose } = renderForm({
      messageFields: { 'validation.too_long': 'name' },
      save: () => Promise.reject(new ApiError({ kind: 'api', code: 4009, key: 'validation.too_long' })),
    });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Too long')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('Cancel leaves without saving', () => {
    const { save, onClose } = renderForm({});
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledWith(false);
    expect(save).not.toHaveBeenCalled();
  });
});
