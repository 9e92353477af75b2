import { CheckCircleFilled, CloseOutlined } from '@ant-design/icons';
import type { Statistics } from '@intercom/contract';
import { Button, Card, Flex, Progress, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../shared/session/SessionContext';
import { useTalk } from '../../talk';
import { FIRST_RUN_STEPS, firstRunDone, readFirstRun, writeFirstRun, type FirstRunStep } from './firstRunState';

const TARGETS: Record<FirstRunStep, string> = {
  departments: '/Managent/User',
  users: '/Managent/User',
  channel: '/Channel/Channel',
  download: '/System/plugin',
  map: '/main/map',
};

/**
 * The first steps of a new enterprise on the dashboard: departments, users, a channel, the talk
 * service, the live map; each ticked when done (firstRunDone), each a link to where it is done.
 * Closing it is remembered for this account in this browser; it goes by itself once all are done.
 */
export function FirstRunChecklist({ stats }: { stats: Statistics }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { info } = useSession();
  const agentPresent = useTalk((s) => s.agent === 'present');
  const [marks, setMarks] = useState(() => readFirstRun(info.E_ID, info.A_ID));
  const done = firstRunDone(stats, marks, agentPresent);
  const count = FIRST_RUN_STEPS.filter((step) => done[step]).length;
  if (marks.dismissed || count === FIRST_RUN_STEPS.length) return null;

  const remember = (patch: typeof marks) => {
    const next = { ...marks, ...patch };
    writeFirstRun(info.E_ID, info.A_ID, next);
    setMarks(next);
  };
  const open = (step: FirstRunStep) => {
    if (step === 'download' || step === 'map') remember({ [step]: true });
    void navigate(TARGETS[step]);
  };

  return (
    <Card
      size="small"
      data-testid="first-run"
      title={t('dashboard.first_run.title')}
      extra={
        <Button
          type="text"
          size="small"
          icon={<CloseOutlined />}
          aria-label={t('dashboard.first_run.dismiss')}
          onClick={() => remember({ dismissed: true })}
          data-testid="first-run-dismiss"
        />
      }
    >
      <Flex vertical gap={8}>
        <Progress
          percent={Math.round((count / FIRST_RUN_STEPS.length) * 100)}
          format={() => t('dashboard.first_run.progress', { done: count, total: FIRST_RUN_STEPS.length })}
        />
        {FIRST_RUN_STEPS.map((step) => (
          <Flex key={step} gap={8} align="center" wrap data-testid={`first-run-${step}`} data-done={done[step]}>
            <CheckCircleFilled
              style={{ color: done[step] ? '#389e0d' : '#d9d9d9', fontSize: 16 }}
              aria-label={done[step] ? t('dashboard.first_run.done') : t('dashboard.first_run.todo')}
            />
            <Typography.Text
              delete={done[step]}
              type={done[step] ? 'secondary' : undefined}
              style={{ flex: 1, minWidth: 160 }}
            >
              {t(`dashboard.first_run.${step}`)}
            </Typography.Text>
            {!done[step] && (
              <Button size="small" onClick={() => open(step)}>
                {t(`dashboard.first_run.${step}_action`)}
              </Button>
            )}
          </Flex>
        ))}
      </Flex>
    </Card>
  );
}
