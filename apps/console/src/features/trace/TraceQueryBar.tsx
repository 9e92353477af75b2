import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import { TRACK_MAX_RANGE_MS } from '@intercom/contract';
import { Button, DatePicker, Dropdown, Flex, Form } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../../shared/ui/useIsMobile';
import { UserPicker } from '../../shared/pickers/UserPicker';
import type { TraceRequest } from './api';

interface QueryValues {
  userId?: number;
  range?: [Dayjs | null, Dayjs | null] | null;
}

export interface TraceQueryBarProps {
  initial: { userId?: number; day?: Dayjs };
  loading: boolean;
  onQuery: (request: TraceRequest) => void;
  /** Absent until a track was queried. */
  onExport?: (format: 'gpx' | 'csv') => void;
}

/** Today, from midnight to the end of the day: the default range. */
export function dayRange(day: Dayjs = dayjs()): [Dayjs, Dayjs] {
  return [day.startOf('day'), day.endOf('day')];
}

/**
 * The user (by name or phone) and the range: a start or an end is required (SPEC.md section 5),
 * at most 7 days, checked here with the server's own limits before anything is sent.
 */
export function TraceQueryBar({ initial, loading, onQuery, onExport }: TraceQueryBarProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<QueryValues>();
  const mobile = useIsMobile();

  const submit = (values: QueryValues) => {
    const [start, end] = values.range ?? [null, null];
    onQuery({ userId: values.userId as number, from: start?.valueOf(), to: end?.valueOf() });
  };

  const rangeRule = {
    validator: (_: unknown, range: QueryValues['range']) => {
      const [start, end] = range ?? [null, null];
      let failure: string | undefined;
      if (!start && !end) failure = 'trace.time_required';
      else if (start && end && end.valueOf() < start.valueOf()) failure = 'trace.time_order';
      else if (start && end && end.valueOf() - start.valueOf() > TRACK_MAX_RANGE_MS) failure = 'trace.range_too_long';
      return failure ? Promise.reject(new Error(t(failure))) : Promise.resolve();
    },
  };

  return (
    <Form<QueryValues>
      form={form}
      // A phone stacks the fields: the range picker alone is wider than its screen.
      layout={mobile ? 'vertical' : 'inline'}
      initialValues={{ userId: initial.userId, range: dayRange(initial.day) }}
      onFinish={submit}
      data-testid="trace-query"
      style={{ rowGap: 8 }}
    >
      <Form.Item
        name="userId"
        label={t('trace.user')}
        rules={[{ required: true, message: t('trace.user_required') }]}
        style={{ minWidth: 260 }}
      >
        <UserPicker id="trace-user" />
      </Form.Item>
      <Form.Item name="range" label={t('trace.range')} rules={[rangeRule]}>
        <DatePicker.RangePicker
          showTime={{ format: 'HH:mm' }}
          format="YYYY-MM-DD HH:mm"
          allowEmpty={[true, true]}
          placeholder={[t('trace.range_start'), t('trace.range_end')]}
          style={mobile ? { width: '100%' } : undefined}
        />
      </Form.Item>
      <Form.Item>
        <Flex gap={8}>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={loading}>
            {t('trace.query')}
          </Button>
          <Dropdown
            disabled={!onExport}
            menu={{
              items: [
                { key: 'gpx', label: t('trace.export_gpx') },
                { key: 'csv', label: t('trace.export_csv') },
              ],
              onClick: ({ key }) => onExport?.(key as 'gpx' | 'csv'),
            }}
          >
            <Button icon={<DownloadOutlined />} disabled={!onExport}>
              {t('trace.export')}
            </Button>
          </Dropdown>
        </Flex>
      </Form.Item>
    </Form>
  );
}
