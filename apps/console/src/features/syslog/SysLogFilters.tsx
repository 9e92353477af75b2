import { DatePicker, Form, Input, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
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
      <Form.Item name="range" label={t('syslog.time')}>
        <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" allowEmpty={[true, true]} />
      </Form.Item>
      <Form.Item name="Operator" label={t('syslog.operator')}>
        <Input allowClear maxLength={64} />
      </Form.Item>
      <Form.Item name="Action" label={t('syslog.action_label')}>
        <Select
          allowClear

          placeholder={t('syslog.all_actions')}
          options={LOG_ACTIONS.map((action) => ({ value: action, label: actionLabel(i18n, action) }))}
        />
      </Form.Item>
      <Form.Item name="Target" label={t('syslog.target')}>
        <Input allowClear maxLength={128} />
      </Form.Item>
      <Form.Item name="Summary" label={t('syslog.summary')}>
        <Input allowClear maxLength={128} placeholder={t('syslog.summary_placeholder')} />
      </Form.Item>
      <Form.Item name="IP" label={t('syslog.ip')}>
        <Input allowClear maxLength={64} />
      </Form.Item>
    </>
  );
}
