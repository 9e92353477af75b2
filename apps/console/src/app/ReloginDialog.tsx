import { ExclamationCircleFilled } from '@ant-design/icons';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { clearTokens } from '../shared/storage/tokenStore';
import { AntdTheme } from './AntdTheme';

/**
 * SPEC.md section 4: the account was logged out or logged in elsewhere. Re-Login clears the
 * token and reloads (the guard then opens /login with the way back); Cancel closes.
 */
export default function ReloginDialog({ text, onCancel }: { text: string; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <AntdTheme>
      <Modal
        open
        title={
          <span>
            <ExclamationCircleFilled aria-hidden style={{ color: '#faad14', marginInlineEnd: 8 }} />
            {t('session.relogin_title')}
          </span>
        }
        okText={t('session.relogin')}
        cancelText={t('common.cancel')}
        onOk={() => {
          clearTokens();
          window.location.reload();
        }}
        onCancel={onCancel}
        mask={{ closable: false }}
        width={420}
        data-testid="relogin-dialog"
      >
        {text}
      </Modal>
    </AntdTheme>
  );
}
