import { Alert, Button, Card, Empty, Flex, Table, type TableProps } from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorMessage } from '../api/useErrorMessage';
import { useEntityPage, type EntityResource, type ExportFormat } from './entityResource';
import { ListExportButtons } from './ListExportButtons';
import { ListFilterBar } from './ListFilterBar';
import { cleanCondition, DEFAULT_LIST_PARAMS, type Condition, type ListParams } from './listParams';

export interface ListShellProps<T extends object, F extends object> {
  resource: EntityResource<T>;
  /** Columns; a sortable column has `sorter: true` and its `key` is the API field to order by. */
  columns: ColumnsType<T>;
  /** Form.Items of the filter bar; their values go through `toCondition`. */
  filters?: ReactNode;
  toCondition?: (values: F) => Condition;
  exportFormats?: readonly ExportFormat[];
  /** Extra buttons beside the export buttons (e.g. "New" on entity lists). */
  toolbar?: ReactNode;
  title?: ReactNode;
}

/**
 * The one list of the console (STYLE.md): filters, loading, empty state, errors, paging (pageIndex
 * from 0 as on the API), sorting and export. A page declares only its resource, columns and filters.
 */
export function ListShell<T extends object, F extends object = Record<string, unknown>>({
  resource,
  columns,
  filters,
  toCondition,
  exportFormats,
  toolbar,
  title,
}: ListShellProps<T, F>) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const [params, setParams] = useState<ListParams>(DEFAULT_LIST_PARAMS);
  const page = useEntityPage(resource, params);
  const filtered = Object.keys(cleanCondition(params.condition)).length > 0;

  const sortedColumns = useMemo(() => {
    const field = params.orderField || resource.defaultOrder?.field;
    const desc = params.orderField ? params.desc : resource.defaultOrder?.desc;
    return columns.map((column) =>
      column.sorter && column.key !== undefined
        ? { ...column, sortOrder: column.key === field ? (desc ? ('descend' as const) : ('ascend' as const)) : null }
        : column,
    );
  }, [columns, params.orderField, params.desc, resource.defaultOrder]);

  const onChange: TableProps<T>['onChange'] = (pagination, _filters, sorter) => {
    const sort = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T> | undefined;
    const orderField = sort?.order ? String(sort.columnKey ?? '') : '';
    const desc = sort?.order === 'descend';
    setParams((previous) => {
      const pageSize = pagination.pageSize ?? previous.pageSize;
      const reordered = orderField !== previous.orderField || desc !== previous.desc || pageSize !== previous.pageSize;
      return {
        ...previous,
        pageSize,
        orderField,
        desc,
        pageIndex: reordered ? 0 : Math.max(0, (pagination.current ?? 1) - 1),
      };
    });
  };

  const search = (values: F) =>
    setParams((previous) => ({
      ...previous,
      pageIndex: 0,
      condition: toCondition ? toCondition(values) : ({ ...values } as Condition),
    }));

  return (
    <Card title={title}>
      <Flex vertical gap={16}>
        {filters && (
          <ListFilterBar<F>
            onSearch={search}
            onReset={() => setParams((previous) => ({ ...previous, pageIndex: 0, condition: {} }))}
            searching={page.isFetching}
          >
            {filters}
          </ListFilterBar>
        )}
        {(exportFormats?.length || toolbar) && (
          <Flex justify="flex-end" gap={8} wrap>
            {toolbar}
            {exportFormats && <ListExportButtons resource={resource} params={params} formats={exportFormats} />}
          </Flex>
        )}
        {page.isError && (
          <Alert
            type="error"
            showIcon
            title={t('common.query_error', { message: errorMessage(page.error) })}
            action={
              <Button size="small" onClick={() => void page.refetch()}>
                {t('common.retry')}
              </Button>
            }
          />
        )}
        <Table<T>
          rowKey={resource.rowKey}
          columns={sortedColumns}
          dataSource={page.data?.rows ?? []}
          loading={page.isFetching}
          onChange={onChange}
          sortDirections={['ascend', 'descend', 'ascend']}
          scroll={{ x: 'max-content' }}
          locale={{
            emptyText: (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={page.isError ? t('list.load_failed') : filtered ? t('list.no_match') : t('list.empty')}
              />
            ),
          }}
          pagination={{
            current: params.pageIndex + 1,
            pageSize: params.pageSize,
            total: page.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: [10, 20, 50, 100],
            showTotal: (total) => t('list.total', { total }),
          }}
        />
      </Flex>
    </Card>
  );
}
