import { UndoOutlined, UploadOutlined } from '@ant-design/icons';
import { ImageKinds, MediaLimits, MessageKeys, type ImageKind } from '@intercom/contract';
import { Alert, Button, Card, Flex, Typography } from 'antd';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../shared/session/SessionContext';
import { translateMessage } from '../../i18n/translateMessage';
import { tk } from '../../i18n/tk';
import { wasShown } from '../../shared/api/ApiError';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { useRunAction } from '../../shared/api/useRunAction';
import { useConfirm } from '../../shared/ui/ConfirmContext';
import { useToast } from '../../shared/ui/ToastContext';
import { useModifyConfig, useUploadImage } from './api';
import { subjectImageUrl } from './brandingStore';
import { checkImageFile } from './imageCheck';

const TEXTS = {
  bg: { title: tk('settings.bg_title'), hint: tk('settings.bg_hint') },
  logo: { title: tk('settings.logo_title'), hint: tk('settings.logo_hint') },
} as const;

const ACCEPT = 'image/png,image/jpeg,image/webp';

/** One subject image: its preview, the size it must have, upload and going back to the built-in look. */
export function SubjectImageCard({ kind }: { kind: ImageKind }) {
  const { t, i18n } = useTranslation();
  const { sysConfig } = useSession();
  const upload = useUploadImage();
  const modify = useModifyConfig();
  const confirm = useConfirm();
  const run = useRunAction();
  const message = useToast();
  const errorMessage = useErrorMessage();
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const { code, width, height } = ImageKinds[kind];
  const url = subjectImageUrl(sysConfig?.[code]);
  const title = t(TEXTS[kind].title);

  const send = async (file: File) => {
    setProblem(null);
    setChecking(true);
    const found = await checkImageFile(file, kind).finally(() => setChecking(false));
    if (found) {
      setProblem(translateMessage(i18n, found.key, found.params));
      return;
    }
    upload.mutate(
      { kind, file },
      {
        onSuccess: () => void message.success(t(MessageKeys.ok)),
        onError: (error) => {
          if (wasShown(error)) return;
          setProblem(errorMessage(error));
        },
      },
    );
  };

  const restore = () =>
    confirm({
      title: t('settings.restore_confirm', { name: title }),
      okText: t('settings.restore'),
      onOk: () => run(() => modify.mutateAsync([{ code, value: '' }])),
    });

  return (
    <Card title={title} data-testid={`subject-${kind}`}>
      <Flex vertical gap={12}>
        <div
          style={{
            maxWidth: width,
            aspectRatio: `${width} / ${height}`,
            border: '1px dashed #d9d9d9',
            borderRadius: 6,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            background: 'repeating-conic-gradient(#f5f5f5 0% 25%, #fff 0% 50%) 50% / 16px 16px',
            overflow: 'hidden',
          }}
        >
          {url ? (
            <img
              src={url}
              alt={t('settings.current_image', { name: title })}
              width={width}
              height={height}
              style={{ display: 'block', width: '100%', height: 'auto' }}
            />
          ) : (
            <Typography.Text type="secondary">{t('settings.builtin_in_use')}</Typography.Text>
          )}
        </div>
        <Typography.Text type="secondary" id={hintId}>
          {t(TEXTS[kind].hint, { width, height, maxKB: MediaLimits.imageMaxBytes / 1024 })}
        </Typography.Text>
        {problem && <Alert type="error" showIcon title={problem} role="alert" />}
        <Flex gap={8} wrap>
          <Button
            type="primary"
            icon={<UploadOutlined />}
            loading={checking || upload.isPending}
            onClick={() => input.current?.click()}
            aria-describedby={hintId}
          >
            {t('settings.upload')}
          </Button>
          {url && (
            <Button icon={<UndoOutlined />} onClick={restore} disabled={upload.isPending}>
              {t('settings.restore')}
            </Button>
          )}
        </Flex>
        <input
          ref={input}
          type="file"
          accept={ACCEPT}
          hidden
          aria-label={t('settings.upload_file', { name: title })}
          onChange={(event) => {
            const file = event.target.files?.[0];
            // The same file may be chosen again after a fix elsewhere: clear the choice.
            event.target.value = '';
            if (file) void send(file);
          }}
        />
      </Flex>
    </Card>
  );
}
