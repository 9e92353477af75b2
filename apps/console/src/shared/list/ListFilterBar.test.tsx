import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Form, Input } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { ListFilterBar } from './ListFilterBar';

const FIELD = 'Search text';

function showBar(searching: boolean, onSearch: (values: { Search?: string }) => void) {
  return renderWithProviders(
    <ListFilterBar<{ Search?: string }> onSearch={onSearch} onReset={() => undefined} searching={searching}>
      <Form.Item name="Search" label={FIELD}>
        <Input />
      </Form.Item>
    </ListFilterBar>,
  );
}

describe('ListFilterBar', () => {
  it.each([false, true])(
    'searches with what was typed when Search is clicked (list loading: %s)',
    async (searching) => {
      const onSearch = vi.fn();
      showBar(searching, onSearch);
      fireEvent.change(screen.getByLabelText(FIELD), { target: { value: '13800000001' } });
      fireEvent.click(screen.getByRole('button', { name: /Search/ }));
      await waitFor(() => expect(onSearch).toHaveBeenCalledWith({ Search: '13800000001' }));
    },
  );
});
