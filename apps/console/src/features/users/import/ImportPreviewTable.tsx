import { USER_IMPORT_COLUMNS, type UserImportError, type UserImportPreviewRow } from '@intercom/contract';
import { Table, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useImportErrorText, useImportFieldName } from './ImportErrorTable';

interface Props {
  preview: UserImportPreviewRow[];
  errors: UserImportError[];
}

/** The first rows of the file as the server read them; a cell with a problem is marked, its message on hover. */
export function ImportPreviewTable({ preview, errors }: Props) {
  const { t } = useTranslation();
  const text = useImportErrorText();
  const fieldName = useImportFieldName();
  const problems = new Map<string, string[]>();
  for (const error of errors) {
    const key = `${error.row}:${error.field}`;
    problems.set(key, [...(problems.get(key) ?? []), text(error)]);
  }
  return (
    <Table<UserImportPreviewRow>
      size="small"
      rowKey="row"
      dataSource={preview}
      scroll={{ x: 'max-content', y: 320 }}
      pagination={false}
      title={() => t('userImport.preview_title', { rows: preview.length })}
      columns={[
        { key: 'row', dataIndex: 'row', title: t('userImport.row'), width: 64, fixed: 'left' },
        ...USER_IMPORT_COLUMNS.map((column) => ({
          key: column,
          title: fieldName(column),
          render: (_value: unknown, line: UserImportPreviewRow) => {
            const cell = line.values[column] ?? '';
            const messages = problems.get(`${line.row}:${column}`);
            if (!messages) return cell;
            return (
              <Tooltip title={messages.join(' ')}>
                <Typography.Text type="danger" mark data-testid={`user-import-bad-${line.row}-${column}`}>
                  {cell === '' ? '—' : cell}
                </Typography.Text>
              </Tooltip>
            );
          },
        })),
      ]}
      data-testid="user-import-preview"
    />
  );
}
