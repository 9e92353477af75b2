import { CloseOutlined, FullscreenOutlined } from '@ant-design/icons';
import type { TalkVideoSource } from '@intercom/contract';
import { Button, Card, Flex, Tooltip, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StreamDecoder, type StreamStats } from './streamDecoder';
import type { VideoFrameSource } from './videoFrameSource';

interface Props {
  video: TalkVideoSource;
  source: VideoFrameSource;
  onClose: () => void;
}

/**
 * One watched stream: the picture on a canvas (decoded by StreamDecoder), its resolution, frame
 * rate and delay, full screen, and close (which frees the stream). The canvas carries the count of
 * decoded pictures in `data-decoded` for the browser tests.
 */
export function VideoTile({ video, source, onClose }: Props) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const [stats, setStats] = useState<StreamStats | null>(null);

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    let shown = 0;
    const decoder = new StreamDecoder(element, (latest) => {
      element.dataset.decoded = String(latest.decoded);
      // At most about 4 re-renders a second for the numbers; the canvas itself draws every picture.
      const now = performance.now();
      if (now - shown < 250) return;
      shown = now;
      setStats({ ...latest });
    });
    const unsubscribe = source.subscribe(video.uid, (frame) => decoder.push(frame));
    return () => {
      unsubscribe();
      decoder.close();
    };
  }, [source, video.uid]);

  const fullScreen = () => void box.current?.requestFullscreen?.().catch(() => undefined);
  const line = stats
    ? t('video.stats', {
        width: stats.width,
        height: stats.height,
        fps: stats.fps,
        delay: stats.delayMs ?? '-',
      })
    : t('video.waiting');

  return (
    <Card
      size="small"
      title={video.name}
      aria-label={t('video.stream_of', { name: video.name })}
      extra={
        <Flex gap={4}>
          <Tooltip title={t('video.full_screen')}>
            <Button
              size="small"
              type="text"
              icon={<FullscreenOutlined />}
              onClick={fullScreen}
              aria-label={t('video.full_screen')}
            />
          </Tooltip>
          <Tooltip title={t('video.stop')}>
            <Button size="small" type="text" icon={<CloseOutlined />} onClick={onClose} aria-label={t('video.stop')} />
          </Tooltip>
        </Flex>
      }
      styles={{ body: { padding: 0 } }}
    >
      <div ref={box} style={{ background: '#000', aspectRatio: '4 / 3', display: 'flex' }}>
        <canvas
          ref={canvas}
          data-testid={`video-canvas-${video.uid}`}
          data-decoded="0"
          style={{ width: '100%', height: '100%', objectFit: 'contain' }}
        />
      </div>
      <Typography.Text
        type="secondary"
        style={{ display: 'block', padding: '4px 8px' }}
        data-testid={`video-stats-${video.uid}`}
      >
        {line}
      </Typography.Text>
    </Card>
  );
}
