import { passwordStrength } from '@intercom/contract';
import { Flex, Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { tk } from '../../../i18n/tk';

const LEVELS = [
  { label: tk('batch.strength_none'), color: '#d9d9d9' },
  { label: tk('batch.strength_weak'), color: '#ff4d4f' },
  { label: tk('batch.strength_fair'), color: '#faad14' },
  { label: tk('batch.strength_good'), color: '#52c41a' },
  { label: tk('batch.strength_strong'), color: '#389e0d' },
];

/** Four bars and a word, from the contract's `passwordStrength` (0-4). */
export function PasswordStrength({ password }: { password: string | undefined }) {
  const { t } = useTranslation();
  const score = passwordStrength(password ?? '');
  const level = LEVELS[score] ?? LEVELS[0]!;
  return (
    <Flex align="center" gap={8} data-testid="password-strength" aria-live="polite">
      <Progress
        steps={4}
        percent={score * 25}
        showInfo={false}
        strokeColor={level.color}
        size={[28, 6]}
        aria-label={t('batch.strength')}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('batch.strength_label', { level: t(level.label) })}
      </Typography.Text>
    </Flex>
  );
}
