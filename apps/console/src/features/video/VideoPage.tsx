import { LoginOutlined, VideoCameraOutlined } from '@ant-design/icons';
import type { TalkVideoSource } from '@intercom/contract';
import { Alert, Button, Card, Col, Empty, Flex, List, Row, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IntercomAccountDialog, TalkError, useTalk } from '../../talk';
import { talkVideoSource } from './talkVideoSource';
import type { VideoFrameSource } from './videoFrameSource';
import { VideoTile } from './VideoTile';

/** Streams the panel shows at once (issue 14). */
export const MAX_STREAMS = 4;

/** Server codes of videoApply with a text of their own; anything else says "could not start". */
const APPLY_ERRORS = new Set(['not_video_member', 'no_video']);

/** Sorted by name; a new array only when the talk state's list changes. */
function byName(videos: readonly TalkVideoSource[]): TalkVideoSource[] {
  return [...videos].sort((a, b) => a.name.localeCompare(b.name));
}

/** Without a seat nothing can be watched: say so and offer the intercom-account login. */
function SeatNeeded() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Alert
        type="warning"
        showIcon
        data-testid="video-not-logged-in"
        title={t('talk.status.not_logged_in')}
        // The button under the text, not beside it: a phone keeps the whole width for the words.
        description={
          <Flex vertical align="start" gap={8}>
            {t('video.login_hint')}
            <Button icon={<LoginOutlined />} onClick={() => setOpen(true)} data-testid="video-talk-login">
              {t('talk.login')}
            </Button>
          </Flex>
        }
      />
      <IntercomAccountDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}

/**
 * /main/video: the video list and a panel of up to four streams. The list is the talk seat's
 * (VideoList at login, then videoOnline/videoOffline: the talk state's `videos`), the one source of
 * truth here because it is exactly what this seat can apply for; the hub's list is the map's.
 * Watching applies for the stream through the talk owner (the terminal starts sending), closing a
 * tile frees it (the last viewer's free stops the terminal).
 */
export default function VideoPage({ source = talkVideoSource }: { source?: VideoFrameSource }) {
  const { t } = useTranslation();
  const videos = useTalk((s) => s.videos);
  const loggedIn = useTalk((s) => s.seat !== null);
  const [watching, setWatching] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => source.onLost(() => setWatching([])), [source]);
  useEffect(() => () => source.close(), [source]);
  // A terminal that went offline leaves the panel (the server dropped its viewers already); coming
  // back, it is watched again only when asked. Adjusted while rendering, as React advises for state
  // that follows a prop.
  const [listed, setListed] = useState(videos);
  if (listed !== videos) {
    setListed(videos);
    setWatching((list) => list.filter((uid) => videos.some((v) => v.uid === uid)));
  }

  const watch = useCallback(
    async (video: TalkVideoSource) => {
      setError(null);
      try {
        await source.applyVideo(video.uid);
        setWatching((list) => [...list.filter((uid) => uid !== video.uid), video.uid]);
      } catch (failure) {
        const code = failure instanceof TalkError && APPLY_ERRORS.has(failure.code) ? failure.code : 'failed';
        setError(t(`video.error_${code}`, { name: video.name }));
      }
    },
    [source, t],
  );

  const stop = useCallback(
    (uid: number) => {
      setWatching((list) => list.filter((u) => u !== uid));
      void source.freeVideo(uid);
    },
    [source],
  );

  const list = byName(videos);
  const shown = list.filter((video) => watching.includes(video.uid));
  const full = shown.length >= MAX_STREAMS;

  return (
    <Row gutter={[16, 16]}>
      {/* First, full width: on a phone it comes before the (empty) list. */}
      {!loggedIn && (
        <Col span={24}>
          <SeatNeeded />
        </Col>
      )}
      <Col xs={24} md={8} lg={6}>
        <Card title={t('video.list_title')} size="small">
          <List
            dataSource={list}
            locale={{
              emptyText: (
                <Empty
                  description={loggedIn ? t('video.list_empty') : t('video.list_needs_seat')}
                  image={Empty.PRESENTED_IMAGE_SIMPLE}
                />
              ),
            }}
            renderItem={(video) => {
              const on = watching.includes(video.uid);
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
            {shown.map((video) => (
              <Col key={video.uid} xs={24} xl={shown.length === 1 ? 24 : 12}>
                <VideoTile video={video} source={source} onClose={() => stop(video.uid)} />
              </Col>
            ))}
          </Row>
        )}
      </Col>
    </Row>
  );
}
