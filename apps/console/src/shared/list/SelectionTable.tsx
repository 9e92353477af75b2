import { Empty, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import type { Key, UIEvent } from 'react';

export interface SelectionTableProps<T> {
  rowKey: keyof T & string;
  columns: ColumnsType<T>;
  rows: readonly T[];
  /** Keys of the ticked rows (also rows not loaded or filtered out now). */
  selectedKeys: readonly Key[];
  /** Rows ticked (`on`) or unticked, one by one or with the header's check box. */
  onChange: (rows: readonly T[], on: boolean) => void;
  /** The accessible name of a row's check box. */
  rowLabel: (row: T) => string;
  loading?: boolean;
  emptyText: string;
  scroll: { x: number; y: number };
  /** For loading more rows as the list nears its end. */
  onScroll?: (event: UIEvent<HTMLElement>) => void;
}

/**
 * A long list to tick rows in (the channel member picker, a user's channels): virtual, a click
 * anywhere on a row ticks it, and the ticked keys survive a new search or filter.
 */
export function SelectionTable<T extends object>({
  rowKey,
  columns,
  rows,
  selectedKeys,
  onChange,
  rowLabel,
  loading,
  emptyText,
  scroll,
  onScroll,
}: SelectionTableProps<T>) {
  return (
    <Table<T>
      virtual
      size="small"
      rowKey={rowKey}
      columns={columns}
      dataSource={rows}
      loading={loading}
      pagination={false}
      scroll={scroll}
      onScroll={onScroll}
      rowSelection={{
        selectedRowKeys: selectedKeys as Key[],
        preserveSelectedRowKeys: true,
        columnWidth: 40,
        onSelect: (row, on) => onChange([row], on),
        onSelectAll: (on, _rows, changed) => onChange(changed, on),
        getCheckboxProps: (row) => ({ 'aria-label': rowLabel(row) }),
      }}
      onRow={(row) => ({
        // A click anywhere on the row ticks it; the check box itself already did.
        onClick: (event) => {
          if (!(event.target as HTMLElement).closest('.ant-table-selection-column')) {
            onChange([row], !selectedKeys.includes(row[rowKey] as Key));
          }
        },
      })}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} /> }}
    />
  );
}
