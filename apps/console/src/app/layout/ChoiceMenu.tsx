import { Button, Dropdown, type MenuProps } from 'antd';
import type { ReactNode } from 'react';

/** A top-bar button that opens a menu of choices, the current one ticked (language, size). */
export function ChoiceMenu({
  icon,
  label,
  selected,
  items,
  onPick,
  testId,
  children,
}: {
  icon: ReactNode;
  /** The button's accessible name and tooltip. */
  label: string;
  selected: string;
  items: MenuProps['items'];
  onPick: (key: string) => void;
  testId?: string;
  children?: ReactNode;
}) {
  return (
    <Dropdown
      trigger={['click']}
      menu={{ selectable: true, selectedKeys: [selected], items, onClick: ({ key }) => onPick(key) }}
    >
      <Button type="text" icon={icon} aria-label={label} title={label} data-testid={testId}>
        {children}
      </Button>
    </Dropdown>
  );
}
