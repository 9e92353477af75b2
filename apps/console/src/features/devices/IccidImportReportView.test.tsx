import { MessageKeys, type IccidImportReport } from '@intercom/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { english, renderWithProviders } from '../../../test/renderWithProviders';
import { IccidImportReportView } from './IccidImportReportView';

const report: IccidImportReport = {
  fileName: 'sims.txt',
  lines: 7,
  blank: 1,
  accepted: 2,
  duplicateCount: 2,
  invalidCount: 2,
  duplicates: [
    { line: 3, ICCID: '89860000000000000001', reason: 'file', firstLine: 1 },
    { line: 5, ICCID: '89860000000000000009', reason: 'exists' },
  ],
  invalid: [
    { line: 4, value: 'abc', key: MessageKeys.iccidInvalid },
    { line: 6, value: '123', key: MessageKeys.iccidInvalid },
  ],
};

/** The cells of each body row of a table, as text. */
const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .filter((row) => within(row).queryAllByRole('cell').length > 0)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );

describe('ICCID import report', () => {
  test('shows the counts, then the invalid lines first, and the duplicates with why each is one', () => {
    renderWithProviders(<IccidImportReportView report={report} />);
    const view = screen.getByTestId('iccid-import-report');
    expect(within(view).getByText(english('devices.import_done', { accepted: 2, file: 'sims.txt' }))).toBeTruthy();
    for (const [key, value] of [
      ['devices.report_lines', '7'],
      ['devices.report_accepted', '2'],
      ['devices.report_blank', '1'],
    ] as const) {
      expect(within(view).getByText(english(key)).closest('.ant-statistic')?.textContent).toContain(value);
    }

    expect(rowsOf(screen.getByTestId('iccid-invalid-lines'))).toEqual([
      ['4', 'abc', english(MessageKeys.iccidInvalid)],
      ['6', '123', english(MessageKeys.iccidInvalid)],
    ]);
    fireEvent.click(screen.getByRole('tab', { name: english('devices.report_duplicates_tab', { count: 2 }) }));
    expect(rowsOf(screen.getByTestId('iccid-duplicate-lines'))).toEqual([
      ['3', '89860000000000000001', english('devices.dup_in_file', { line: 1 })],
      ['5', '89860000000000000009', english('devices.dup_exists')],
    ]);
  });

  test('a clean import shows no line tables', () => {
    renderWithProviders(
      <IccidImportReportView report={{ ...report, duplicateCount: 0, invalidCount: 0, duplicates: [], invalid: [] }} />,
    );
    expect(screen.queryByRole('tab')).toBeNull();
    expect(screen.queryByTestId('iccid-invalid-lines')).toBeNull();
  });
});
