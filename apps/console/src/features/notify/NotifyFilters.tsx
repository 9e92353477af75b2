import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { SelectFilter, TextFilter, TimeRangeFilter } from '../../shared/list/FilterFields';
import { timeRangeCondition, type Condition } from '../../shared/list/listParams';
import { NOTIFY_STATES, NOTIFY_TYPES, stateLabel, typeLabel } from './notifyText';

export interface NotifyFilterValues {
  NType?: string;
  State?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
  Search?: string;
}

/** Filter values -> jsonCondition: type and state equal, raised in the range, text over user, phone, content. */
export function notifyCondition(values: NotifyFilterValues): Condition {
  return {
    NType: values.NType || undefined,
    State: values.State || undefined,
    CreatedAt: timeRangeCondition(values.range),
    Search: values.Search?.trim() || undefined,
  };
}

/** The filter fields of the alarm records. */
export function NotifyFilters() {
  const { t, i18n } = useTranslation();
  return (
    <>
      <SelectFilter
        name="NType"
        label={t('alarms.type')}
        placeholder={t('alarms.all_types')}
        options={NOTIFY_TYPES.map((type) => ({ value: type, label: typeLabel(i18n, type) }))}
      />
      <SelectFilter
        name="State"
        label={t('alarms.state')}
        placeholder={t('alarms.all_states')}
        options={NOTIFY_STATES.map((state) => ({ value: state, label: stateLabel(i18n, state) }))}
      />
      <TimeRangeFilter name="range" label={t('alarms.time')} />
      <TextFilter name="Search" label={t('alarms.search')} placeholder={t('alarms.search_placeholder')} wide />
    </>
  );
}
