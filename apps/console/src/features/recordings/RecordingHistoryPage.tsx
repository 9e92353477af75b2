import { PlayCircleOutlined } from '@ant-design/icons';
import type { RecordingRow } from '@intercom/contract';
import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListShell } from '../../shared/list/ListShell';
import { recordingResource } from './api';
import {
  RECORDING_TYPE_LABELS,
  RecordingFilters,
  recordingCondition,
  type RecordingFilterValues,
} from './RecordingFilters';
import { formatDuration, formatSize } from './recordingFormat';
import { RecordingPlayer } from './RecordingPlayer';
import { formatDateTime } from '../../shared/format/formatDateTime';
import { dateTimeColumn } from '../../shared/list/dateTimeColumn';
import { rowActionsColumn } from '../../shared/list/RowActions';

const none = <Typography.Text type="secondary">—</Typography.Text>;

/** /Channel/RecdHis: talk bursts by type, time, channel and speaker; play one at a time, download. */
export default function RecordingHistoryPage() {
  const { t } = useTranslation();
  const [playing, setPlaying] = useState<RecordingRow | null>(null);

  const columns = useMemo<ColumnsType<RecordingRow>>(
    () => [
      dateTimeColumn('StartAt', t('recordings.time'), { precision: 'second', sorter: true, width: 180 }),
      {
        key: 'RType',
        dataIndex: 'RType',
        title: t('recordings.type'),
        sorter: true,
        width: 120,
        render: (value: string) => (
          <Tag color={value === 'private' ? 'purple' : 'blue'}>{t(RECORDING_TYPE_LABELS[value] ?? value)}</Tag>
        ),
      },
      {
        key: 'CName',
        dataIndex: 'CName',
        title: t('recordings.channel'),
        sorter: true,
        render: (value: string | null, row) =>
          row.RType === 'private'
            ? row.ToUserName
              ? t('recordings.to_party', { name: row.ToUserName })
              : none
            : (value ?? none),
      },
      {
        key: 'UserName',
        dataIndex: 'UserName',
        title: t('recordings.speaker'),
        sorter: true,
        render: (value: string | null, row) =>
          value ? (
            <span>
              {value}
              {row.MobilePhone && <Typography.Text type="secondary">{` · ${row.MobilePhone}`}</Typography.Text>}
            </span>
          ) : (
            none
          ),
      },
      {
        key: 'Duration',
        dataIndex: 'Duration',
        title: t('recordings.duration'),
        sorter: true,
        align: 'right',
        width: 110,
        render: (value: number) => formatDuration(value),
      },
      {
        key: 'Size',
        dataIndex: 'Size',
        title: t('recordings.size'),
        sorter: true,
        align: 'right',
        width: 110,
        render: (value: number) => formatSize(value),
      },
      rowActionsColumn<RecordingRow>(
        t('common.actions'),
        (row) => ({
          actions: [
            {
              key: 'play',
              label: t('recordings.play'),
              icon: <PlayCircleOutlined />,
              ariaLabel: t('recordings.play_one', { time: formatDateTime(row.StartAt, 'second') }),
              onClick: () => setPlaying(row),
            },
          ],
        }),
        { width: 100 },
      ),
    ],
    [t],
  );

  return (
    <>
      <ListShell<RecordingRow, RecordingFilterValues>
        title={t('route.recordings')}
        resource={recordingResource}
        columns={columns}
        filters={<RecordingFilters />}
        toCondition={recordingCondition}
        exportFormats={['csv', 'xlsx']}
        testId="recording-list"
      />
      <RecordingPlayer recording={playing} onClose={() => setPlaying(null)} />
    </>
  );
}
