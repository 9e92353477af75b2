import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AgentProbe } from './useAgentProbe';

/** Whether a talk agent answers on this computer, its version, and whether the server has a newer one. */
export function AgentStatus({
  probe,
  offered,
  onRecheck,
}: {
  probe: AgentProbe;
  offered: string | null;
  onRecheck: () => void;
}) {
  const { t } = useTranslation();
  const action = (
    <Button size="small" onClick={onRecheck} disabled={probe.state === 'checking'}>
      {t('plugin.check_again')}
    </Button>
  );
  if (probe.state === 'checking') {
    return <Alert type="info" showIcon title={t('plugin.agent_checking')} data-testid="agent-status" />;
  }
  if (probe.state === 'absent') {
    return (
      <Alert
        type="warning"
        showIcon
        title={t('plugin.agent_absent')}
        description={t('plugin.agent_absent_detail')}
        action={action}
        data-testid="agent-status"
      />
    );
  }
  const outdated = offered !== null && offered !== probe.version;
  return (
    <Alert
      type={outdated ? 'warning' : 'success'}
      showIcon
      title={t('plugin.agent_running', { version: probe.version })}
      description={outdated ? t('plugin.agent_outdated', { running: probe.version, offered }) : undefined}
      action={action}
      data-testid="agent-status"
    />
  );
}
