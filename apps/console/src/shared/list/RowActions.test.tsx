import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { RowActions } from './RowActions';

const noop = () => undefined;

describe('RowActions', () => {
  it('shows each action as a button, leaves hidden ones out and runs the one clicked', () => {
    const edit = vi.fn();
    renderWithProviders(
      <RowActions
        actions={[
          { key: 'edit', label: 'Edit', onClick: edit },
          { key: 'freeze', label: 'Freeze', danger: true, disabled: true, onClick: noop },
          { key: 'current', label: 'Make current', hidden: true, onClick: noop },
        ]}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    expect(edit).toHaveBeenCalledOnce();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Freeze' }).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Make current' })).toBeNull();
  });

  it('an icon-only action is named for its row and shows no text', () => {
    const remove = vi.fn();
    renderWithProviders(
      <RowActions
        actions={[
          {
            key: 'delete',
            label: 'Delete',
            icon: <span data-testid="icon" />,
            iconOnly: true,
            ariaLabel: 'Delete channel Sales',
            onClick: remove,
          },
        ]}
      />,
    );
    const button = screen.getByRole('button', { name: 'Delete channel Sales' });
    expect(button.textContent).not.toContain('Delete');
    fireEvent.click(button);
    expect(remove).toHaveBeenCalledOnce();
  });

  it('puts the rarer actions behind a "more" menu named for the row', async () => {
    const reset = vi.fn();
    renderWithProviders(
      <RowActions
        name="alice"
        actions={[{ key: 'edit', label: 'Edit', onClick: noop }]}
        more={[
          { key: 'reset', label: 'Reset password', onClick: reset },
          { key: 'delete', label: 'Delete', danger: true, disabled: true, onClick: noop },
        ]}
      />,
    );
    expect(screen.queryByText('Reset password')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'More actions for alice' }));
    const item = await screen.findByRole('menuitem', { name: 'Reset password' });
    expect(screen.getByRole('menuitem', { name: 'Delete' }).getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(item);
    await waitFor(() => expect(reset).toHaveBeenCalledOnce());
  });

  it('has no "more" button when every rarer action is hidden', () => {
    renderWithProviders(
      <RowActions
        name="alice"
        actions={[{ key: 'edit', label: 'Edit', onClick: noop }]}
        more={[{ key: 'reset', label: 'Reset password', hidden: true, onClick: noop }]}
      />,
    );
    expect(screen.getAllByRole('button')).toHaveLength(1);
  });
});
