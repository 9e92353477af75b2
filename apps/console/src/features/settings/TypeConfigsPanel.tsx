import {
  iconOptionSchema,
  lineOptionSchema,
  pointOptionSchema,
  USER_STATES,
  type GisTypeRow,
  type IconOption,
  type UserState,
  type UserTypeWithStates,
} from '@intercom/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Card, Empty, Flex, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { tk } from '../../i18n/tk';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { useGisTypes, useUserTypeIcons } from './api';
import { IconPreview } from './IconPreview';

const STATE_LABELS: Record<UserState, string> = {
  sos: tk('settings.state_sos'),
  talking: tk('settings.state_talking'),
  online: tk('settings.state_online'),
  offline: tk('settings.state_offline'),
  locked: tk('settings.state_locked'),
};

const pair = (value: readonly [number, number] | undefined) => (value ? `${value[0]} × ${value[1]}` : '-');

function parsed<T>(schema: { safeParse: (v: unknown) => { success: boolean; data?: T } }, text: string): T | undefined {
  try {
    const result = schema.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

/** The geometry columns every icon has: size, anchor, popup anchor, shadow with its size and anchor. */
function useIconColumns<T>(iconOf: (row: T) => IconOption | undefined): ColumnsType<T> {
  const { t } = useTranslation();
  return [
    { key: 'size', title: t('settings.icon_size'), render: (_, row) => pair(iconOf(row)?.iconSize) },
    { key: 'anchor', title: t('settings.icon_anchor'), render: (_, row) => pair(iconOf(row)?.iconAnchor) },
    { key: 'popup', title: t('settings.popup_anchor'), render: (_, row) => pair(iconOf(row)?.popupAnchor) },
    {
      key: 'shadow',
      title: t('settings.shadow'),
      render: (_, row) => {
        const shadow = iconOf(row)?.shadow;
        return shadow ? <Typography.Text code>{shadow}</Typography.Text> : '-';
      },
    },
    { key: 'shadowSize', title: t('settings.shadow_size'), render: (_, row) => pair(iconOf(row)?.shadowSize) },
    { key: 'shadowAnchor', title: t('settings.shadow_anchor'), render: (_, row) => pair(iconOf(row)?.shadowAnchor) },
  ];
}

function iconCell(option: IconOption | undefined, label: string, colour?: string): ReactNode {
  if (!option) return '-';
  return (
    <Flex align="center" gap={8}>
      <IconPreview option={option} label={label} {...(colour ? { colour } : {})} />
      <Typography.Text code>{option.icon}</Typography.Text>
    </Flex>
  );
}

/** Loading, failure and empty states of one read-only table. */
function TypeTable<T extends object>({
  query,
  columns,
  rowKey,
  testId,
}: {
  query: UseQueryResult<T[]>;
  columns: ColumnsType<T>;
  rowKey: keyof T & string;
  testId: string;
}) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  if (query.isError) return <Alert type="error" showIcon title={errorMessage(query.error)} />;
  return (
    <Table<T>
      data-testid={testId}
      rowKey={rowKey}
      size="small"
      columns={columns}
      dataSource={query.data ?? []}
      loading={query.isPending}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: <Empty description={t('settings.types_empty')} /> }}
    />
  );
}

interface StateRow {
  state: UserState;
  icon: IconOption;
}

/** One user type: a row per state, in the order the map checks them. */
function UserTypeStates({ type }: { type: UserTypeWithStates }) {
  const { t } = useTranslation();
  const rows: StateRow[] = USER_STATES.flatMap((state) => {
    const icon = type.States[state];
    return icon ? [{ state, icon }] : [];
  });
  const columns: ColumnsType<StateRow> = [
    { key: 'state', title: t('settings.state'), render: (_, row) => t(STATE_LABELS[row.state]) },
    { key: 'icon', title: t('settings.icon'), render: (_, row) => iconCell(row.icon, t(STATE_LABELS[row.state])) },
    ...useIconColumns<StateRow>((row) => row.icon),
  ];
  const name = type.ID === 0 ? t('users.type_default') : type.Name;
  return (
    <Flex vertical gap={8}>
      <Typography.Title level={5} style={{ margin: 0 }}>
        {name} <Tag>{t('settings.type_id', { id: type.ID })}</Tag>
      </Typography.Title>
      <Table<StateRow>
        rowKey="state"
        size="small"
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
      />
    </Flex>
  );
}

/** Type configs of the map (SPEC.md section 3): user types with their state icons, points, lines. Read-only. */
export function TypeConfigsPanel() {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const users = useUserTypeIcons();
  const points = useGisTypes('GISPoint');
  const lines = useGisTypes('GISLine');
  const pointOption = (row: GisTypeRow) => parsed(pointOptionSchema, row.Option);
  const lineOption = (row: GisTypeRow) => parsed(lineOptionSchema, row.Option);

  const pointColumns: ColumnsType<GisTypeRow> = [
    { key: 'name', title: t('settings.type_name'), render: (_, row) => row.Name },
    {
      key: 'icon',
      title: t('settings.icon'),
      render: (_, row) => {
        const option = pointOption(row);
        return iconCell(option && parsed(iconOptionSchema, row.Option), row.Name, option?.color);
      },
    },
    ...useIconColumns<GisTypeRow>(pointOption),
  ];
  const lineColumns: ColumnsType<GisTypeRow> = [
    { key: 'name', title: t('settings.type_name'), render: (_, row) => row.Name },
    {
      key: 'look',
      title: t('settings.line_look'),
      render: (_, row) => {
        const option = lineOption(row);
        if (!option) return '-';
        return (
          <svg width={80} height={14} role="img" aria-label={row.Name}>
            <line
              x1={2}
              y1={7}
              x2={78}
              y2={7}
              stroke={option.color}
              strokeWidth={option.width}
              strokeDasharray={option.dash.length > 0 ? option.dash.map((d) => d * option.width).join(' ') : undefined}
            />
          </svg>
        );
      },
    },
    { key: 'color', title: t('settings.line_color'), render: (_, row) => lineOption(row)?.color ?? '-' },
    { key: 'width', title: t('settings.line_width'), render: (_, row) => lineOption(row)?.width ?? '-' },
    {
      key: 'dash',
      title: t('settings.line_dash'),
      render: (_, row) => {
        const dash = lineOption(row)?.dash;
        if (!dash) return '-';
        return dash.length > 0 ? dash.join(', ') : t('settings.line_solid');
      },
    },
  ];

  return (
    <Flex vertical gap={16}>
      <Alert type="info" showIcon title={t('settings.types_readonly')} />
      <Card title={t('settings.user_types')} data-testid="user-types">
        {users.isError ? (
          <Alert type="error" showIcon title={errorMessage(users.error)} />
        ) : users.isPending ? (
          <Table loading dataSource={[]} pagination={false} />
        ) : (
          <Flex vertical gap={20}>
            {users.data.map((type) => (
              <UserTypeStates key={type.ID} type={type} />
            ))}
          </Flex>
        )}
      </Card>
      <Card title={t('settings.point_types')}>
        <TypeTable query={points} columns={pointColumns} rowKey="ID" testId="point-types" />
      </Card>
      <Card title={t('settings.line_types')}>
        <TypeTable query={lines} columns={lineColumns} rowKey="ID" testId="line-types" />
      </Card>
    </Flex>
  );
}
