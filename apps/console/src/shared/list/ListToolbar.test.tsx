import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { ConfirmProvider } from '../ui/ConfirmContext';
import { entityResource } from './entityResource';
import { ListShell } from './ListShell';
import { deleteSelectedAction, ListToolbar, type ListAction } from './ListToolbar';
import { useListSelection } from './useListSelection';

const noop = () => undefined;
const EXPORT = 'Export CSV';
const show = (ui: ReactElement) => renderWithProviders(<ConfirmProvider>{ui}</ConfirmProvider>);
const button = (name: string | RegExp) => screen.getByRole<HTMLButtonElement>('button', { name });

describe('ListToolbar', () => {
  it('shows the actions by name in the order declared and runs the one clicked', () => {
    const create = vi.fn();
    show(
      <ListToolbar
        actions={[
          { key: 'create', label: 'New thing', primary: true, onClick: create },
          { key: 'import', label: 'Import', testId: 'thing-import', onClick: noop },
          { key: 'map', label: 'Map', disabled: true, onClick: noop },
        ]}
        tools={<button type="button">{EXPORT}</button>}
      />,
    );
    const names = screen.getAllByRole('button').map((element) => element.textContent);
    expect(names).toEqual(['New thing', 'Import', 'Map', 'Export CSV']);
    fireEvent.click(button('New thing'));
    expect(create).toHaveBeenCalledOnce();
    expect(screen.getByTestId('thing-import').textContent).toBe('Import');
    expect(button('Map').disabled).toBe(true);
    expect(button('Import').disabled).toBe(false);
  });

  it('an action on the ticked rows shows their count and is off while none is ticked', () => {
    const change = vi.fn();
    const actions = (selected: number): ListAction[] => [
      { key: 'change', label: 'Change selected', selected, onClick: change },
    ];
    const view = show(<ListToolbar actions={actions(0)} />);
    expect(button('Change selected').disabled).toBe(true);
    fireEvent.click(button('Change selected'));
    expect(change).not.toHaveBeenCalled();

    view.rerender(
      <ConfirmProvider>
        <ListToolbar actions={actions(3)} />
      </ConfirmProvider>,
    );
    expect(button('Change selected').disabled).toBe(false);
    expect(button('Change selected').parentElement?.textContent).toContain('3');
    fireEvent.click(button('Change selected'));
    expect(change).toHaveBeenCalledOnce();
  });

  it('asks before a destructive action and runs it only on OK', async () => {
    const remove = vi.fn(() => Promise.resolve());
    show(
      <ListToolbar
        actions={[
          {
            key: 'delete',
            label: 'Delete selected',
            danger: true,
            selected: 2,
            confirm: { title: 'Delete 2 things?', content: 'They cannot be restored.', okText: 'Delete' },
            onClick: remove,
          },
        ]}
      />,
    );
    fireEvent.click(button('Delete selected'));
    const asked = await screen.findByRole('dialog');
    expect(asked.textContent).toContain('Delete 2 things?');
    expect(asked.textContent).toContain('They cannot be restored.');
    expect(remove).not.toHaveBeenCalled();
    fireEvent.click(within(asked).getByRole('button', { name: 'Cancel' }));
    expect(remove).not.toHaveBeenCalled();

    // The closed dialog may linger while it animates out: answer the newest one.
    fireEvent.click(button('Delete selected'));
    await waitFor(() => expect(screen.getAllByRole('dialog').length).toBe(2));
    const again = screen.getAllByRole('dialog').at(-1)!;
    fireEvent.click(within(again).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(remove).toHaveBeenCalledOnce());
  });
});

interface Row {
  id: number;
  name: string;
}

const resource = entityResource<Row>({ name: 'Thing', rowKey: 'id' });
const columns = [{ key: 'name', dataIndex: 'name', title: 'Name' }];

function ThingList({ onDelete }: { onDelete: (ids: number[]) => void }) {
  const selection = useListSelection<Row>('id');
  const count = selection.keys.length;
  return (
    <ListShell<Row>
      resource={resource}
      columns={columns}
      selection={selection}
      actions={[
        deleteSelectedAction('Delete selected', count, { title: `Delete ${count} things?`, okText: 'Delete' }, () => {
          const ids = selection.keys.map(Number);
          onDelete(ids);
          selection.drop(ids);
        }),
      ]}
    />
  );
}

afterEach(() => vi.unstubAllGlobals());

// The button's name also holds its icon's ("delete").
const DELETE_SELECTED = /Delete selected$/;

describe('a list with actions on its ticked rows', () => {
  it('turns the action on as rows are ticked, and clears the ticks it acted on', async () => {
    const rows: Row[] = [
      { id: 1, name: 'Alpha' },
      { id: 2, name: 'Beta' },
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          new Response(JSON.stringify({ BaseResult: { Code: 8888, Message: '' }, Data: rows, Total: 2 }), {
            headers: { 'Content-Type': 'application/json' },
          }),
        ),
      ),
    );
    const onDelete = vi.fn();
    show(<ThingList onDelete={onDelete} />);
    const alpha = await screen.findByRole('row', { name: /Alpha/ });
    expect(button(DELETE_SELECTED).disabled).toBe(true);

    fireEvent.click(within(alpha).getByRole('checkbox'));
    fireEvent.click(within(screen.getByRole('row', { name: /Beta/ })).getByRole('checkbox'));
    await waitFor(() => expect(button(DELETE_SELECTED).disabled).toBe(false));

    fireEvent.click(button(DELETE_SELECTED));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Delete 2 things?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(onDelete).toHaveBeenCalledWith([1, 2]));
    await waitFor(() => expect(button(DELETE_SELECTED).disabled).toBe(true));
    expect(within(alpha).getByRole<HTMLInputElement>('checkbox').checked).toBe(false);
  });
});
