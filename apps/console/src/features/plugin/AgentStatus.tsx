import { Alert, Button, type AlertProps } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { AgentProbe } from './useAgentProbe';

/** What the status line says for each state of the probe. */
function statusText(
  t: TFunction,
  probe: AgentProbe,
  offered: string | null,
): Pick<AlertProps, 'type' | 'title' | 'description'> {
  if (probe.state === 'checking') return { type: 'info', title: t('plugin.agent_checking') };
  if (probe.state === 'absent') {
    return { type: 'warning', title: t('plugin.agent_absent'), description: t('plugin.agent_absent_detail') };
  }
  const outdated = offered !== null && offered !== probe.version;
  return {
    type: outdated ? 'warning' : 'success',
    title: t('plugin.agent_running', { version: probe.version }),
    description: outdated ? t('plugin.agent_outdated', { running: probe.version, offered }) : undefined,
  };
}

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
  // Nothing to check again while a check runs.
  const action =
    probe.state === 'checking' ? undefined : (
      <Button size="small" onClick={onRecheck}>
        {t('plugin.check_again')}
      </Button>
    );
  return <Alert showIcon {...statusText(t, probe, offered)} action={action} data-testid="agent-status" />;
}
