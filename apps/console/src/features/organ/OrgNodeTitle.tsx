import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** An enterprise or department of a tree: its name and, quieter, how many users it has. */
export function OrgNodeTitle({ name, userCount }: { name: string; userCount: number }) {
  const { t } = useTranslation();
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      {name}
      <Typography.Text type="secondary" style={{ marginInlineStart: 6, fontSize: 12 }}>
        {t('organ.user_count', { count: userCount })}
      </Typography.Text>
    </span>
  );
}
