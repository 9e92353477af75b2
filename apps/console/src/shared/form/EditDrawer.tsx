import { Drawer } from 'antd';
import type { ReactNode } from 'react';
import { useIsMobile } from '../ui/useIsMobile';
import { EditFormShell, type EditFormShellProps } from './EditFormShell';

export interface EditDrawerProps<T extends object> extends Omit<EditFormShellProps<T>, 'bare' | 'backTo' | 'onClose'> {
  open: boolean;
  title: ReactNode;
  /** After Cancel, the close button (false) or a successful save (true). */
  onClose: (saved: boolean) => void;
  width?: number;
  testId?: string;
}

/**
 * The edit shell in a drawer from the right (full width on a phone). The form is built anew
 * each time it opens, so it always starts from the object as it is now.
 */
export function EditDrawer<T extends object>({
  open,
  title,
  onClose,
  width = 520,
  testId,
  ...shell
}: EditDrawerProps<T>) {
  const mobile = useIsMobile();
  return (
    <Drawer
      open={open}
      title={title}
      onClose={() => onClose(false)}
      size={mobile ? '100%' : width}
      destroyOnHidden
      data-testid={testId}
    >
      <EditFormShell<T> {...shell} title={title} bare onClose={onClose} />
    </Drawer>
  );
}
