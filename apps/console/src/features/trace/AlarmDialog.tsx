import type { NotifyRow } from '@intercom/contract';
import { Descriptions, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format/formatDateTime';
import { detailText, stateLabel, typeLabel } from '../notify';

/** An alarm of the timeline: type, time, details, position and state. */
export function AlarmDialog({ alarm, onClose }: { alarm: NotifyRow | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <Modal open={alarm !== null} title={t('trace.alarm_title')} onCancel={onClose} footer={null} destroyOnHidden>
      {alarm && (
        <Descriptions
          column={1}
          size="small"
          bordered
          data-testid="trace-alarm"
          items={[
            { key: 'type', label: t('alarms.type'), children: typeLabel(i18n, alarm.NType) },
            { key: 'time', label: t('alarms.time'), children: formatDateTime(alarm.CreatedAt, 'second') },
            { key: 'content', label: t('alarms.content'), children: detailText(i18n, alarm) || '—' },
            {
              key: 'position',
              label: t('alarms.position'),
              children:
                alarm.Latitude === null || alarm.Longitude === null ? '—' : `${alarm.Latitude}, ${alarm.Longitude}`,
            },
            { key: 'state', label: t('alarms.state'), children: stateLabel(i18n, alarm.State) },
          ]}
        />
      )}
    </Modal>
  );
}
