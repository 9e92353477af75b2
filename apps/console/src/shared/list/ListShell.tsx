import { Alert, Button, Card, Empty, Flex, Table, type TableProps } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useMemo, useState, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorMessage } from '../api/useErrorMessage';
import { useIsMobile } from '../ui/useIsMobile';
import { ColumnSettings } from './ColumnSettings';
import { useEntityPage, type EntityResource, type ExportFormat } from './entityResource';
import { ListExportButtons } from './ListExportButtons';
import { ListFilterBar } from './ListFilterBar';
import { ListToolbar, type ListAction } from './ListToolbar';
import { cleanCondition, DEFAULT_LIST_PARAMS, type Condition, type ListParams } from './listParams';
import { useColumnVisibility } from './useColumnVisibility';

export interface ListSelection<T> {
  keys: Key[];
  onChange: (keys: Key[], rows: T[]) => void;
}

export interface ListColumnSettings {
  /** Where the choice is stored (`columns.<storageKey>`). */
  storageKey: string;
  /** Keys of columns hidden until the user shows them. */
  defaultHidden?: readonly string[];
  /** Keys of columns that cannot be hidden (the row actions). */
  locked?: readonly string[];
}

export interface ListShellProps<T extends object, F extends object> {
  resource: EntityResource<T>;
  /** Columns; a sortable column has `sorter: true` and its `key` is the API field to order by. */
  columns: ColumnsType<T>;
  /** Form.Items of the filter bar; their values go through `toCondition`. */
  filters?: ReactNode;
  toCondition?: (values: F) => Condition;
  /** A condition set outside the filter bar (a department picked in a tree); changing it goes to page 1. */
  fixedCondition?: Condition;
  exportFormats?: readonly ExportFormat[];
  /** Actions of the list ("New", actions on the ticked rows), left of the export buttons, in this order. */
  actions?: readonly ListAction[];
  title?: ReactNode;
  /** Beside the card's title. */
  extra?: ReactNode;
  /** Rows can be ticked (for actions on several at once). */
  selection?: ListSelection<T>;
  /** Lets the user choose the visible columns. */
  columnSettings?: ListColumnSettings;
  testId?: string;
}

const NO_KEYS: readonly string[] = [];
const NO_ACTIONS: readonly ListAction[] = [];

/**
 * The one list of the console (STYLE.md): filters, loading, empty state, errors, paging (pageIndex
 * from 0 as on the API), sorting, column choice, selection and export. A page declares only its
 * resource, columns, filters and actions.
 */
export function ListShell<T extends object, F extends object = Record<string, unknown>>({
  resource,
  columns,
  filters,
  toCondition,
  fixedCondition,
  exportFormats,
  actions = NO_ACTIONS,
  title,
  extra,
  selection,
  columnSettings,
  testId,
}: ListShellProps<T, F>) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const [params, setParams] = useState<ListParams>(DEFAULT_LIST_PARAMS);
  const defaultHidden = columnSettings?.defaultHidden ?? NO_KEYS;
  const [hidden, setHidden] = useColumnVisibility(columnSettings?.storageKey, defaultHidden);

  // A new outside condition starts again from the first page.
  const fixedKey = JSON.stringify(fixedCondition ?? {});
  const [lastFixedKey, setLastFixedKey] = useState(fixedKey);
  if (lastFixedKey !== fixedKey) {
    setLastFixedKey(fixedKey);
    setParams((previous) => ({ ...previous, pageIndex: 0 }));
  }
  const effective = useMemo<ListParams>(
    () => ({ ...params, condition: { ...params.condition, ...(JSON.parse(fixedKey) as Condition) } }),
    [params, fixedKey],
  );
  const page = useEntityPage(resource, effective);
  // "No records match" only for what the user typed; a page's own condition is not a filter to them.
  const filtered = Object.keys(cleanCondition(params.condition)).length > 0;

  const locked = columnSettings?.locked ?? NO_KEYS;
  const choices = useMemo(
    () =>
      columns.flatMap((column) =>
        column.key !== undefined && typeof column.title === 'string' && !locked.includes(String(column.key))
          ? [{ key: String(column.key), title: column.title }]
          : [],
      ),
    [columns, locked],
  );

  const mobile = useIsMobile();
  const shownColumns = useMemo(() => {
    const field = params.orderField || resource.defaultOrder?.field;
    const desc = params.orderField ? params.desc : resource.defaultOrder?.desc;
    return (
      columns
        .filter((column) => column.key === undefined || !hidden.includes(String(column.key)))
        // On a phone, pinned columns would take the whole width and leave nothing to scroll.
        .map((column) => (mobile && column.fixed ? { ...column, fixed: undefined } : column))
        .map((column) =>
          column.sorter && column.key !== undefined
            ? {
                ...column,
                sortOrder: column.key === field ? (desc ? ('descend' as const) : ('ascend' as const)) : null,
              }
            : column,
        )
    );
  }, [columns, hidden, mobile, params.orderField, params.desc, resource.defaultOrder]);

  const onChange: TableProps<T>['onChange'] = (pagination, _filters, sorter) => {
    const sort = Array.isArray(sorter) ? sorter[0] : sorter;
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

  const tools = exportFormats?.length || columnSettings;
  return (
    <Card title={title} extra={extra} data-testid={testId} styles={{ body: { minWidth: 0 } }}>
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
        {(actions.length > 0 || tools) && (
          <ListToolbar
            actions={actions}
            tools={
              <>
                {exportFormats && <ListExportButtons resource={resource} params={effective} formats={exportFormats} />}
                {columnSettings && (
                  <ColumnSettings
                    choices={choices}
                    hidden={hidden}
                    onChange={setHidden}
                    defaultHidden={defaultHidden}
                  />
                )}
              </>
            }
          />
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
          columns={shownColumns}
          dataSource={page.data?.rows ?? []}
          loading={page.isFetching}
          onChange={onChange}
          sortDirections={['ascend', 'descend', 'ascend']}
          scroll={{ x: 'max-content' }}
          rowSelection={
            selection
              ? {
                  selectedRowKeys: selection.keys,
                  onChange: (keys, rows) => selection.onChange(keys, rows),
                  preserveSelectedRowKeys: true,
                }
              : undefined
          }
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
