import { ExclamationCircleFilled } from '@ant-design/icons';
import { Modal } from 'antd';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface ConfirmOptions {
  title: ReactNode;
  content?: ReactNode;
  okText?: string;
  /** A destructive action: the button is red. */
  danger?: boolean;
  /** Runs on OK; the dialog shows a spinner until it settles, then closes. */
  onOk: () => Promise<unknown> | void;
}

type Confirm = (options: ConfirmOptions) => void;

const ConfirmContext = createContext<Confirm | null>(null);

/** antd's confirm dialog, bound to the theme and locale, for the signed-in screens. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [modal, holder] = Modal.useModal();
  const confirm = useMemo<Confirm>(
    () => (options) => {
      void modal.confirm({
        title: options.title,
        content: options.content,
        icon: <ExclamationCircleFilled />,
        okText: options.okText ?? t('common.confirm'),
        cancelText: t('common.cancel'),
        okButtonProps: { danger: options.danger },
        onOk: async () => {
          await options.onOk();
        },
      });
    },
    [modal, t],
  );
  return (
    <ConfirmContext value={confirm}>
      {holder}
      {children}
    </ConfirmContext>
  );
}

export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm outside ConfirmProvider');
  return confirm;
}
