import { DownloadOutlined } from '@ant-design/icons';
import type { RecordingRow } from '@intercom/contract';
import { Alert, Button, Descriptions, Drawer, Flex, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../shared/api/ApiError';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { useIsMobile } from '../../shared/ui/useIsMobile';
import { downloadUrl, probePlayUrl, useRecordingUrl } from './api';
import { RECORDING_TYPE_LABELS } from './RecordingFilters';
import { formatDuration, formatSize } from './recordingFormat';
import { formatDateTime } from '../../shared/format/formatDateTime';

/** Why the audio does not play: the server's message, or the browser could not decode the file. */
type PlayProblem = { kind: 'server'; message: string } | { kind: 'decode' } | null;

/**
 * One recording in a drawer: its details, an `<audio controls>` on a signed play URL (so long
 * files seek through range requests) and a download of the same URL. Only one is open at a time.
 */
export function RecordingPlayer({ recording, onClose }: { recording: RecordingRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  return (
    <Drawer
      open={recording !== null}
      title={t('recordings.player_title')}
      onClose={onClose}
      size={mobile ? '100%' : 480}
      destroyOnHidden
      data-testid="recording-player"
    >
      {recording && <PlayerBody key={recording.R_ID} recording={recording} />}
    </Drawer>
  );
}

function PlayerBody({ recording }: { recording: RecordingRow }) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const link = useRecordingUrl(recording.R_ID);
  const [problem, setProblem] = useState<PlayProblem>(null);
  const [retried, setRetried] = useState(false);

  const onAudioError = async (url: string) => {
    try {
      await probePlayUrl(url);
      setProblem({ kind: 'decode' });
    } catch (error) {
      // A link that expired with an idle session gets one fresh link before the user is told.
      if (isApiError(error) && error.status === 403 && !retried) {
        setRetried(true);
        void link.refetch();
        return;
      }
      setProblem({ kind: 'server', message: errorMessage(error) });
    }
  };

  const url = link.data?.url;
  const speaker = recording.UserName
    ? `${recording.UserName}${recording.MobilePhone ? ` · ${recording.MobilePhone}` : ''}`
    : '—';
  return (
    <Flex vertical gap={16}>
      <Descriptions
        column={1}
        size="small"
        bordered
        items={[
          {
            key: 'time',
            label: t('recordings.time'),
            children: formatDateTime(recording.StartAt, 'second'),
          },
          {
            key: 'type',
            label: t('recordings.type'),
            children: t(RECORDING_TYPE_LABELS[recording.RType] ?? recording.RType),
          },
          recording.RType === 'private'
            ? { key: 'to', label: t('recordings.other_party'), children: recording.ToUserName ?? '—' }
            : { key: 'channel', label: t('recordings.channel'), children: recording.CName ?? '—' },
          { key: 'speaker', label: t('recordings.speaker'), children: speaker },
          { key: 'duration', label: t('recordings.duration'), children: formatDuration(recording.Duration) },
          { key: 'size', label: t('recordings.size'), children: formatSize(recording.Size) },
        ]}
      />
      {link.isPending && <Spin />}
      {link.isError && <Alert type="error" showIcon title={errorMessage(link.error)} role="alert" />}
      {problem?.kind === 'server' && <Alert type="error" showIcon title={problem.message} role="alert" />}
      {problem?.kind === 'decode' && <Alert type="warning" showIcon title={t('recordings.cannot_play')} role="alert" />}
      {url && problem?.kind !== 'server' && (
        <>
          <audio
            key={url}
            src={url}
            controls
            autoPlay
            preload="auto"
            aria-label={t('recordings.audio_label')}
            style={{ width: '100%' }}
            onError={() => void onAudioError(url)}
          />
          <div>
            <Button icon={<DownloadOutlined />} href={downloadUrl(url)} download={`recording-${recording.R_ID}.ogg`}>
              {t('recordings.download')}
            </Button>
          </div>
        </>
      )}
    </Flex>
  );
}
