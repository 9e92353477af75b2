import type { ColumnType } from 'antd/es/table/interface';
import { formatDateTime, type TimePrecision } from '../format/formatDateTime';

export interface DateTimeColumnOptions {
  precision?: TimePrecision;
  /** Sortable on the server (the column's key is the sort field). */
  sorter?: boolean;
  width?: number;
  /** What an empty time (null) reads as, e.g. "never" for an expiry. */
  empty?: string;
}

/** A table column showing the time held in the row's `key` field. */
export function dateTimeColumn<Row>(
  key: Extract<keyof Row, string>,
  title: string,
  { precision = 'minute', sorter = false, width, empty = '' }: DateTimeColumnOptions = {},
): ColumnType<Row> {
  return {
    key,
    dataIndex: key,
    title,
    sorter,
    ...(width === undefined ? {} : { width }),
    render: (value: number | null | undefined) => (value == null ? empty : formatDateTime(value, precision)),
  };
}
