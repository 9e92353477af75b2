import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The commands that fetch and start the agent on each system (docs/talk-agent.md has the autostart
 * recipes). Commands are not translated: they are typed as they are.
 */
export function InstallCommands({ packageUrl }: { packageUrl: string }) {
  const { t } = useTranslation();
  const origin = window.location.origin;
  const absolute = new URL(packageUrl, origin).toString();
  const start = `node talk-agent.mjs --server ${origin}`;
  const unix = [`curl -fo talk-agent.mjs ${absolute}`, start];
  const commands = {
    windows: [`Invoke-WebRequest -Uri ${absolute} -OutFile talk-agent.mjs`, start],
    macos: unix,
    linux: unix,
  };
  return (
    <div>
      <Typography.Paragraph type="secondary">{t('plugin.needs_node')}</Typography.Paragraph>
      <Tabs
        size="small"
        items={(['windows', 'macos', 'linux'] as const).map((os) => ({
          key: os,
          label: t(`plugin.os_${os}`),
          children: commands[os].map((line) => (
            <Typography.Paragraph key={line} copyable={{ text: line }} style={{ marginBottom: 4 }}>
              <Typography.Text code style={{ wordBreak: 'break-all' }}>
                {line}
              </Typography.Text>
            </Typography.Paragraph>
          )),
        }))}
      />
    </div>
  );
}
