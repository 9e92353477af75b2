import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { RetryAlert } from '../../shared/ui/RetryAlert';
import { translateMessage } from '../../i18n/translateMessage';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { formatSize } from '../recordings';
import { AgentStatus } from './AgentStatus';
import { InstallCommands } from './InstallCommands';
import { usePluginInfo } from './api';
import { useAgentProbe } from './useAgentProbe';
import { LoadingSkeleton } from '../../shared/ui/LoadingSkeleton';

const LOCALHOST = '127.0.0.1';

/**
 * /System/plugin (every role): the local talk service a dispatcher runs beside the console, whether
 * one runs on this computer, its version and ports, and how to install it. When the server has no
 * build of it, the page says so and offers no download.
 */
export default function PluginPage() {
  const { t, i18n } = useTranslation();
  const errorMessage = useErrorMessage();
  const info = usePluginInfo();
  const { probe, recheck } = useAgentProbe(info.data?.monitorPort);

  if (info.isPending) {
    return (
      <Card title={t('route.plugin')}>
        <LoadingSkeleton rows={3} />
      </Card>
    );
  }
  if (info.isError) {
    return (
      <Card title={t('route.plugin')}>
        <RetryAlert
          title={t('common.query_error', { message: errorMessage(info.error) })}
          onRetry={() => void info.refetch()}
        />
      </Card>
    );
  }

  const plugin = info.data;
  const downloadable = plugin.available && plugin.url !== null;
  const steps = [
    { title: t('plugin.step_download'), description: t('plugin.step_download_detail') },
    { title: t('plugin.step_start'), description: t('plugin.step_start_detail') },
    {
      title: t('plugin.step_ports'),
      description: t('plugin.step_ports_detail', {
        monitor: `${LOCALHOST}:${plugin.monitorPort}`,
        talk: `${LOCALHOST}:${plugin.talkPort}`,
      }),
    },
    { title: t('plugin.step_audio'), description: t('plugin.step_audio_detail') },
    { title: t('plugin.step_console'), description: t('plugin.step_console_detail') },
  ];
  const missing = <Typography.Text type="secondary">{t('plugin.not_available_short')}</Typography.Text>;
  return (
    <Card title={t('route.plugin')} data-testid="plugin-page">
      <Flex vertical gap={24}>
        <Typography.Paragraph style={{ margin: 0 }}>{t('plugin.intro')}</Typography.Paragraph>
        <AgentStatus probe={probe} offered={plugin.version} onRecheck={recheck} />
        {downloadable ? (
          <div>
            <Button type="primary" icon={<DownloadOutlined />} href={plugin.url ?? undefined} download>
              {t('plugin.download', { version: plugin.version ?? '' })}
            </Button>
          </div>
        ) : (
          <Alert
            type="info"
            showIcon
            title={translateMessage(i18n, plugin.message || 'plugin.not_shipped')}
            description={t('plugin.not_shipped_detail')}
          />
        )}
        <Descriptions
          title={t('plugin.details')}
          bordered
          size="small"
          column={1}
          items={[
            {
              key: 'name',
              label: t('plugin.package'),
              children: <Typography.Text code>{plugin.name}</Typography.Text>,
            },
            { key: 'version', label: t('plugin.version'), children: plugin.version ?? missing },
            {
              key: 'size',
              label: t('plugin.size'),
              children: plugin.size !== null ? formatSize(plugin.size) : missing,
            },
            {
              key: 'monitor',
              label: t('plugin.monitor_service'),
              children: <Typography.Text code>{`${LOCALHOST}:${plugin.monitorPort}`}</Typography.Text>,
            },
            {
              key: 'talk',
              label: t('plugin.talk_service'),
              children: <Typography.Text code>{`${LOCALHOST}:${plugin.talkPort}`}</Typography.Text>,
            },
          ]}
        />
        <div>
          <Typography.Title level={5}>{t('plugin.install_title')}</Typography.Title>
          <ol style={{ margin: 0, paddingInlineStart: 20 }}>
            {steps.map((step) => (
              <li key={step.title} style={{ marginBottom: 12 }}>
                <Typography.Text strong>{step.title}</Typography.Text>
                <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
                  {step.description}
                </Typography.Paragraph>
              </li>
            ))}
          </ol>
          {plugin.url !== null && <InstallCommands packageUrl={plugin.url} />}
        </div>
        <Alert type="info" showIcon title={t('plugin.lna_title')} description={t('plugin.lna_detail')} />
      </Flex>
    </Card>
  );
}
