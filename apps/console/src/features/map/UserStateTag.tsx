import { Badge } from 'antd';
import { useTranslation } from 'react-i18next';
import { USER_STATE_COLOURS } from '../../map/userStateColours';
import type { UserMapState } from '../../shared/hub/userMapState';
import { USER_STATE_LABELS } from './userStateLabels';

/** A dot in the state's map colour and its name, so colour is never the only sign. */
export function UserStateTag({ state, compact = false }: { state: UserMapState; compact?: boolean }) {
  const { t } = useTranslation();
  const label = t(USER_STATE_LABELS[state]);
  return (
    <Badge
      color={USER_STATE_COLOURS[state]}
      text={compact ? undefined : label}
      title={label}
      aria-label={label}
      data-state={state}
    />
  );
}
