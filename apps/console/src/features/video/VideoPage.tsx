import { VideoCameraOutlined } from '@ant-design/icons';
import type { VideoSource } from '@intercom/contract';
import { Alert, Button, Card, Col, Empty, List, Row, Tag, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHubSnapshot } from '../../shared/hub/useHubSnapshot';
import { SeatVideoSource } from './seatVideoSource';
import { VideoSourceError, type VideoFrameSource } from './videoFrameSource';
import { VideoTile } from './VideoTile';

/** Streams the panel shows at once (issue 14). */
export const MAX_STREAMS = 4;

/** Server codes of videoApply with a text of their own; anything else says "could not start". */
const APPLY_ERRORS = new Set(['not_video_member', 'no_video']);

/**
 * /main/video: the video list (terminals of the scope that can be watched now, live from the hub)
 * and a panel of up to four streams. Watching applies for the stream (the terminal starts sending),
 * closing a tile frees it (the last viewer's free stops the terminal).
 */
export default function VideoPage({ source: given }: { source?: VideoFrameSource }) {
  const { t } = useTranslation();
  const videos = useHubSnapshot((s) => s.videos);
  const source = useMemo(() => given ?? new SeatVideoSource(), [given]);
  const [watching, setWatching] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => source.onLost(() => setWatching([])), [source]);
  useEffect(() => () => source.close(), [source]);

  const watch = useCallback(
    async (video: VideoSource) => {
      setError(null);
      try {
        await source.applyVideo(video.uid);
        setWatching((list) => [...list.filter((uid) => uid !== video.uid && videos.has(uid)), video.uid]);
      } catch (failure) {
        const code = failure instanceof VideoSourceError && APPLY_ERRORS.has(failure.code) ? failure.code : 'failed';
        setError(t(`video.error_${code}`, { name: video.name }));
      }
    },
    [source, t, videos],
  );

  const stop = useCallback(
    (uid: number) => {
      setWatching((list) => list.filter((u) => u !== uid));
      void source.freeVideo(uid);
    },
    [source],
  );

  const list = [...videos.values()].sort((a, b) => a.name.localeCompare(b.name));
  // A terminal that went offline leaves the panel (the server dropped its viewers already).
  const shown = watching.filter((uid) => videos.has(uid));
  const full = shown.length >= MAX_STREAMS;

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} md={8} lg={6}>
        <Card title={t('video.list_title')} size="small">
          <List
            dataSource={list}
            locale={{ emptyText: <Empty description={t('video.list_empty')} image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
            renderItem={(video) => {
              const on = shown.includes(video.uid);
              return (
                <List.Item
                  actions={[
                    <Button
                      key="watch"
                      size="small"
                      // Two Chinese characters stay 观看, not 观 看: the name a screen reader says.
                      autoInsertSpace={false}
                      type={on ? 'default' : 'primary'}
                      disabled={!on && full}
                      onClick={() => (on ? stop(video.uid) : void watch(video))}
                    >
                      {on ? t('video.stop') : t('video.watch')}
                    </Button>,
                  ]}
                >
                  <List.Item.Meta
                    avatar={<VideoCameraOutlined />}
                    title={video.name}
                    description={video.codecs.map((codec) => (
                      <Tag key={codec}>{codec.toUpperCase()}</Tag>
                    ))}
                  />
                </List.Item>
              );
            }}
          />
          {full && <Typography.Text type="secondary">{t('video.panel_full', { count: MAX_STREAMS })}</Typography.Text>}
        </Card>
      </Col>
      <Col xs={24} md={16} lg={18}>
        {error && (
          <Alert
            type="error"
            showIcon
            closable
            title={error}
            onClose={() => setError(null)}
            style={{ marginBottom: 16 }}
          />
        )}
        {shown.length === 0 ? (
          <Card>
            <Empty description={t('video.panel_empty')} />
          </Card>
        ) : (
          <Row gutter={[16, 16]}>
            {shown.map((uid) => {
              const video = videos.get(uid);
              if (!video) return null;
              return (
                <Col key={uid} xs={24} xl={shown.length === 1 ? 24 : 12}>
                  <VideoTile video={video} source={source} onClose={() => stop(uid)} />
                </Col>
              );
            })}
          </Row>
        )}
      </Col>
    </Row>
  );
}
