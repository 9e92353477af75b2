import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { entityResource } from './entityResource';
import { ListShell } from './ListShell';

const TITLE = 'Things';

interface Row {
  id: number;
  name: string;
}

const resource = entityResource<Row>({ name: 'Thing', rowKey: 'id' });
const columns = [{ key: 'name', dataIndex: 'name', title: 'Name', sorter: true }];

/** The server: answers QueryData with the envelope, and records what was asked. */
function serve(answer: (url: URL) => unknown) {
  const asked: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string) => {
      const url = new URL(input, 'http://console.test');
      asked.push(url);
      return Promise.resolve(
        new Response(JSON.stringify(answer(url)), { headers: { 'Content-Type': 'application/json' } }),
      );
    }),
  );
  return asked;
}

const page = (rows: Row[], total = rows.length) => ({
  BaseResult: { Code: 8888, Message: '' },
  Data: rows,
  Total: total,
});

afterEach(() => vi.unstubAllGlobals());

describe('ListShell', () => {
  it('shows the rows of the first page and the total', async () => {
    const asked = serve(() =>
      page(
        [
          { id: 1, name: 'Alpha' },
          { id: 2, name: 'Beta' },
        ],
        42,
      ),
    );
    renderWithProviders(<ListShell resource={resource} columns={columns} title={TITLE} />);
    expect(await screen.findByRole('cell', { name: 'Alpha' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'Beta' })).toBeTruthy();
    expect(screen.getByText('42 records')).toBeTruthy();
    expect(asked[0]?.pathname).toBe('/api/Thing/QueryData');
    expect(asked[0]?.searchParams.get('pageIndex')).toBe('0');
  });

  it('says when there is nothing yet', async () => {
    serve(() => page([]));
    renderWithProviders(<ListShell resource={resource} columns={columns} />);
    expect(await screen.findByText('No records yet')).toBeTruthy();
  });

  it('asks the server again in the chosen order when a column header is clicked', async () => {
    const asked = serve(() => page([{ id: 1, name: 'Alpha' }]));
    renderWithProviders(<ListShell resource={resource} columns={columns} />);
    await screen.findByRole('cell', { name: 'Alpha' });
    fireEvent.click(screen.getAllByRole('columnheader', { name: /Name/ })[0]!);
    await waitFor(() => expect(asked.some((url) => url.searchParams.get('orderField') === 'name')).toBe(true));
  });

  it('shows a failed load with the reason and a retry that asks again', async () => {
    let fail = true;
    const asked = serve(() =>
      fail ? { BaseResult: { Code: 4003, Message: 'common.oper_failed' } } : page([{ id: 1, name: 'Alpha' }]),
    );
    renderWithProviders(<ListShell resource={resource} columns={columns} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Query error: Operation failed');
    expect(screen.getByText('The list could not be loaded')).toBeTruthy();
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('cell', { name: 'Alpha' })).toBeTruthy();
    expect(asked.length).toBe(2);
  });
});
