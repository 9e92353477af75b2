import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Badge, Button, Flex } from 'antd';
import type { ReactNode } from 'react';
import { useConfirm } from '../ui/ConfirmContext';

export interface ListActionQuestion {
  title: string;
  content?: string;
  okText?: string;
}

/** One button of a list's toolbar; a page declares these and the toolbar lays them out. */
export interface ListAction {
  key: string;
  /** The button's text (translated), which is also its accessible name. */
  label: string;
  icon?: ReactNode;
  /** The page's main action ("New …"): a primary button. */
  primary?: boolean;
  danger?: boolean;
  disabled?: boolean;
  /**
   * For an action on the ticked rows: how many it would act on. Shown as a badge on the button,
   * which is off while it is 0.
   */
  selected?: number;
  /** Asked first; the action runs only on OK, and the dialog waits for it to settle. */
  confirm?: ListActionQuestion;
  testId?: string;
  onClick: () => unknown;
}

/** The page's "New …" action: a primary button with a plus. */
export function createAction(label: string, onClick: () => unknown, disabled?: boolean): ListAction {
  return { key: 'create', label, icon: <PlusOutlined />, primary: true, disabled, onClick };
}

/** "Delete selected": red, with the count of ticked rows, asked before it runs. */
export function deleteSelectedAction(
  label: string,
  selected: number,
  confirm: ListActionQuestion,
  onClick: () => unknown,
): ListAction {
  return { key: 'delete', label, icon: <DeleteOutlined />, danger: true, selected, confirm, onClick };
}

function ActionButton({ action, onClick }: { action: ListAction; onClick: () => void }) {
  const button = (
    <Button
      type={action.primary ? 'primary' : undefined}
      danger={action.danger}
      icon={action.icon}
      disabled={action.disabled || action.selected === 0}
      onClick={onClick}
      data-testid={action.testId}
    >
      {action.label}
    </Button>
  );
  return action.selected === undefined ? (
    button
  ) : (
    <Badge count={action.selected} size="small">
      {button}
    </Badge>
  );
}

function ConfirmedActionButton({ action, question }: { action: ListAction; question: ListActionQuestion }) {
  const confirm = useConfirm();
  const ask = () =>
    confirm({
      ...question,
      danger: action.danger,
      onOk: async () => {
        await action.onClick();
      },
    });
  return <ActionButton action={action} onClick={ask} />;
}

/**
 * The row above a list: the page's actions on the left, in the order declared; the list's own
 * tools (export, column choice) on the right.
 */
export function ListToolbar({ actions = [], tools }: { actions?: readonly ListAction[]; tools?: ReactNode }) {
  return (
    <Flex justify="space-between" gap={8} wrap>
      <Flex gap={8} wrap>
        {actions.map((action) =>
          action.confirm ? (
            <ConfirmedActionButton key={action.key} action={action} question={action.confirm} />
          ) : (
            <ActionButton key={action.key} action={action} onClick={() => void action.onClick()} />
          ),
        )}
      </Flex>
      <Flex gap={8} wrap>
        {tools}
      </Flex>
    </Flex>
  );
}
