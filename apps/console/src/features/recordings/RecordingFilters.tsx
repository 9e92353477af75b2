import { RecordingTypes } from '@intercom/contract';
import { Form } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { tk } from '../../i18n/tk';
import { SelectFilter, TimeRangeFilter } from '../../shared/list/FilterFields';
import { timeRangeCondition, type Condition } from '../../shared/list/listParams';
import { ChannelPicker } from '../../shared/pickers/ChannelPicker';
import { UserPicker } from '../../shared/pickers/UserPicker';

export interface RecordingFilterValues {
  RType?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
  CID?: number;
  U_ID?: number;
}

/** The translated name of a recording type; a type a newer server added shows as it is. */
export const RECORDING_TYPE_LABELS: Record<string, string> = {
  [RecordingTypes.group]: tk('recordings.type_group'),
  [RecordingTypes.private]: tk('recordings.type_private'),
};

/** Filter values -> jsonCondition: type and channel and speaker equal, start time in the range. */
export function recordingCondition(values: RecordingFilterValues): Condition {
  return {
    RType: values.RType || undefined,
    StartAt: timeRangeCondition(values.range),
    CID: values.CID,
    U_ID: values.U_ID,
  };
}

/** The filter fields of the recording history. */
export function RecordingFilters() {
  const { t } = useTranslation();
  return (
    <>
      <SelectFilter
        name="RType"
        label={t('recordings.type')}
        placeholder={t('recordings.all_types')}
        options={Object.values(RecordingTypes).map((type) => ({
          value: type,
          label: t(RECORDING_TYPE_LABELS[type] ?? type),
        }))}
      />
      <TimeRangeFilter name="range" label={t('recordings.time')} />
      <Form.Item name="CID" label={t('recordings.channel')}>
        <ChannelPicker />
      </Form.Item>
      <Form.Item name="U_ID" label={t('recordings.speaker')}>
        <UserPicker />
      </Form.Item>
    </>
  );
}
