import type { UserImportError } from '@intercom/contract';
import { Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The text of an error's code in the console's language; the server's own text if the code is new to us. */
export function useImportErrorText(): (error: UserImportError) => string {
  const { t, i18n } = useTranslation();
  return (error) => (i18n.exists(error.code) ? t(error.code) : error.message);
}

/** The column an error is about, in the console's language (`file` for the whole file). */
export function useImportFieldName(): (field: string) => string {
  const { t, i18n } = useTranslation();
  return (field) => {
    const key = `userImport.column.${field}`;
    return i18n.exists(key) ? t(key) : field;
  };
}

/** The errors of a check or an import: row, column and what is wrong, ten a page, each column sortable. */
export function ImportErrorTable({ errors }: { errors: UserImportError[] }) {
  const { t } = useTranslation();
  const text = useImportErrorText();
  const fieldName = useImportFieldName();
  return (
    <Table<UserImportError>
      size="small"
      rowKey={(error) => `${error.row}:${error.field}:${error.code}`}
      dataSource={errors}
      pagination={{ pageSize: 10, size: 'small', showSizeChanger: false, hideOnSinglePage: true }}
      locale={{ emptyText: t('userImport.no_errors') }}
      columns={[
        {
          key: 'row',
          dataIndex: 'row',
          title: t('userImport.row'),
          width: 64,
          sorter: (a, b) => a.row - b.row,
          defaultSortOrder: 'ascend',
          render: (row: number) => (row === 0 ? t('userImport.whole_file') : row),
        },
        {
          key: 'field',
          dataIndex: 'field',
          title: t('userImport.field'),
          width: 120,
          sorter: (a, b) => fieldName(a.field).localeCompare(fieldName(b.field)),
          render: (field: string) => fieldName(field),
        },
        {
          key: 'message',
          title: t('userImport.problem'),
          sorter: (a, b) => text(a).localeCompare(text(b)),
          render: (_value, error) => <Typography.Text type="danger">{text(error)}</Typography.Text>,
        },
      ]}
      data-testid="user-import-errors"
    />
  );
}
