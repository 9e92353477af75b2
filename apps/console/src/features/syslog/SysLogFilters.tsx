import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { SelectFilter, TextFilter, TimeRangeFilter } from '../../shared/list/FilterFields';
import { timeRangeCondition, type Condition } from '../../shared/list/listParams';
import { actionLabel, LOG_ACTIONS } from './sysLogText';

export interface SysLogFilterValues {
  range?: [Dayjs | null, Dayjs | null] | null;
  Operator?: string;
  Action?: string;
  Target?: string;
  Summary?: string;
  IP?: string;
}

const like = (value: string | undefined) => (value?.trim() ? { like: value.trim() } : undefined);

/** Filter values -> jsonCondition: time range between, action equal, texts contained. */
export function sysLogCondition(values: SysLogFilterValues): Condition {
  return {
    CreatedAt: timeRangeCondition(values.range),
    Operator: like(values.Operator),
    Action: values.Action || undefined,
    Target: like(values.Target),
    Summary: like(values.Summary),
    IP: like(values.IP),
  };
}

/** The filter fields of the system log. */
export function SysLogFilters() {
  const { t, i18n } = useTranslation();
  return (
    <>
      <TimeRangeFilter name="range" label={t('syslog.time')} />
      <TextFilter name="Operator" label={t('syslog.operator')} />
      <SelectFilter
        name="Action"
        label={t('syslog.action_label')}
        placeholder={t('syslog.all_actions')}
        options={LOG_ACTIONS.map((action) => ({ value: action, label: actionLabel(i18n, action) }))}
      />
      <TextFilter name="Target" label={t('syslog.target')} maxLength={128} />
      <TextFilter
        name="Summary"
        label={t('syslog.summary')}
        placeholder={t('syslog.summary_placeholder')}
        maxLength={128}
      />
      <TextFilter name="IP" label={t('syslog.ip')} />
    </>
  );
}
