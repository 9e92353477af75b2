import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** /404: where unknown paths (and routes this role may not open) end up. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('error.page_not_found')}
      extra={
        <Button type="primary" onClick={() => void navigate('/')}>
          {t('common.back_home')}
        </Button>
      }
    />
  );
}
