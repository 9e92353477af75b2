import { DeleteOutlined, EditOutlined, EllipsisOutlined } from '@ant-design/icons';
import { Button, Dropdown, Flex, Tooltip } from 'antd';
import type { ColumnType } from 'antd/es/table/interface';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** One thing a person can do with a table row. */
export interface RowAction {
  key: string;
  /** The button's text; for an icon-only button, its tooltip. */
  label: string;
  onClick: () => void;
  /** With `iconOnly`, the button shows only this icon. */
  icon?: ReactNode;
  iconOnly?: boolean;
  /** The accessible name when the label alone does not say which row (e.g. "Edit channel Sales"). */
  ariaLabel?: string;
  /** A hint on hover, for a text button; an icon-only button's tooltip is its label. */
  tooltip?: string;
  danger?: boolean;
  disabled?: boolean;
  /** Left out entirely, e.g. an action that does not apply to this row. */
  hidden?: boolean;
}

export interface RowActionsProps {
  /** Shown as buttons, in order. */
  actions: readonly RowAction[];
  /** Behind a "more" button (a menu), for the rarer actions. */
  more?: readonly RowAction[];
  /** Names the row for the "more" button's accessible name ("More actions for {{name}}"). */
  name?: string;
}

function ActionButton({ action }: { action: RowAction }) {
  const button = (
    <Button
      type="link"
      size="small"
      danger={action.danger}
      disabled={action.disabled}
      icon={action.icon}
      aria-label={action.ariaLabel ?? (action.iconOnly ? action.label : undefined)}
      onClick={action.onClick}
    >
      {action.iconOnly ? undefined : action.label}
    </Button>
  );
  const tooltip = action.iconOnly ? action.label : action.tooltip;
  return tooltip ? <Tooltip title={tooltip}>{button}</Tooltip> : button;
}

/** The buttons of a table's action column, with the rarer actions behind a "more" menu. */
export function RowActions({ actions, more = [], name }: RowActionsProps) {
  const { t } = useTranslation();
  const menu = more.filter((action) => !action.hidden);
  return (
    <Flex gap={0} wrap={false}>
      {actions
        .filter((action) => !action.hidden)
        .map((action) => (
          <ActionButton key={action.key} action={action} />
        ))}
      {menu.length > 0 && (
        <Dropdown
          trigger={['click']}
          menu={{
            items: menu.map(({ key, label, danger, disabled }) => ({ key, label, danger, disabled })),
            onClick: ({ key }) => menu.find((action) => action.key === key)?.onClick(),
          }}
        >
          <Button
            type="link"
            size="small"
            icon={<EllipsisOutlined />}
            title={t('common.more')}
            aria-label={name === undefined ? t('common.more') : t('common.more_for', { name })}
          />
        </Dropdown>
      )}
    </Flex>
  );
}

/** The action column of a list: titled "Actions", kept at the right edge while the table scrolls. */
export function rowActionsColumn<Row>(
  title: string,
  actionsOf: (row: Row) => RowActionsProps,
  { width, fixed = true }: { width?: number; fixed?: boolean } = {},
): ColumnType<Row> {
  return {
    key: 'actions',
    title,
    ...(fixed ? { fixed: 'right' as const } : {}),
    ...(width === undefined ? {} : { width }),
    render: (_value, row) => <RowActions {...actionsOf(row)} />,
  };
}

/** A row's "Edit": a pencil alone, its accessible name saying which row. */
export function editRowAction(label: string, ariaLabel: string, onClick: () => void): RowAction {
  return { key: 'edit', label, icon: <EditOutlined />, iconOnly: true, ariaLabel, onClick };
}

/** A row's "Delete": a red bin alone, its accessible name saying which row. */
export function deleteRowAction(label: string, ariaLabel: string, onClick: () => void): RowAction {
  return { key: 'delete', label, icon: <DeleteOutlined />, iconOnly: true, danger: true, ariaLabel, onClick };
}
