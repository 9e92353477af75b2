import { Card, Col, Row, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { BaseSettingsForm } from './BaseSettingsForm';
import { LocationProfilesPanel } from './LocationProfilesPanel';
import { SubjectImageCard } from './SubjectImageCard';
import { TypeConfigsPanel } from './TypeConfigsPanel';
import { useIsMobile } from '../../shared/ui/useIsMobile';

const TABS = ['images', 'base', 'gps', 'types'] as const;
type Tab = (typeof TABS)[number];

/**
 * Theme and base settings (/System/subject, admin only): subject images, the config entries,
 * the location-report profiles and the map's type configs. The open tab is in the address (?tab=).
 */
export default function SubjectSettingsPage() {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const active: Tab = TABS.find((tab) => tab === requested) ?? 'images';

  return (
    <Card title={t('route.subject')} styles={{ body: mobile ? { padding: '4px 12px 12px' } : { paddingTop: 8 } }}>
      <Tabs
        activeKey={active}
        onChange={(key) => setParams(key === 'images' ? {} : { tab: key }, { replace: true })}
        destroyOnHidden
        items={[
          {
            key: 'images',
            label: t('settings.tab_images'),
            children: (
              <Row gutter={[16, 16]}>
                <Col xs={24} xl={12}>
                  <SubjectImageCard kind="bg" />
                </Col>
                <Col xs={24} xl={12}>
                  <SubjectImageCard kind="logo" />
                </Col>
              </Row>
            ),
          },
          { key: 'base', label: t('settings.tab_base'), children: <BaseSettingsForm /> },
          { key: 'gps', label: t('settings.tab_gps'), children: <LocationProfilesPanel /> },
          { key: 'types', label: t('settings.tab_types'), children: <TypeConfigsPanel /> },
        ]}
      />
    </Card>
  );
}
