import { Card, Empty, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The empty state of a screen whose feature arrives in a later issue: it says what will be here. */
export function PlaceholderPage({ title, description }: { title: string; description: string }) {
  const { t } = useTranslation();
  return (
    <Card>
      <Empty
        style={{ padding: '48px 0' }}
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={
          <div style={{ maxWidth: 560, margin: '0 auto' }}>
            <Typography.Title level={4} style={{ marginBottom: 8 }}>
              {t(title)}
            </Typography.Title>
            <Typography.Paragraph type="secondary">{t(description)}</Typography.Paragraph>
            <Tag color="processing">{t('placeholder.coming')}</Tag>
          </div>
        }
      />
    </Card>
  );
}
