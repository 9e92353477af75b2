import { DeviceLimits, MessageKeys, type IccidImportReport } from '@intercom/contract';
import { Alert, Button, Flex, Modal, Progress, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError, wasShown } from '../../shared/api/ApiError';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { FileDrop } from '../../shared/ui/FileDrop';
import { useIsMobile } from '../../shared/ui/useIsMobile';
import { useImportIccids } from './api';
import { IccidImportReportView } from './IccidImportReportView';

const kilobytes = (bytes: number) => Math.ceil(bytes / 1024);

/**
 * ImportICCID: pick a .txt file (one ICCID per line), send it as it is, read the report. A file
 * over the size limit is refused here already; the server refuses it whole as well.
 */
export function IccidImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const errorMessage = useErrorMessage();
  const importIccids = useImportIccids();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<IccidImportReport | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const tooLarge = file !== null && file.size > DeviceLimits.importMaxBytes;

  const reset = () => {
    setFile(null);
    setReport(null);
    setFailure(null);
  };

  const send = async () => {
    if (!file || tooLarge) return;
    setFailure(null);
    try {
      setReport((await importIccids.mutateAsync(file)) ?? null);
    } catch (error) {
      if (wasShown(error)) return;
      const field = isApiError(error) ? error.fields[0] : undefined;
      setFailure(field ? t(field.key) : errorMessage(error) || t(MessageKeys.failed));
    }
  };

  return (
    <Modal
      open={open}
      title={t('devices.import_title')}
      onCancel={onClose}
      afterClose={reset}
      width={mobile ? '100%' : 760}
      mask={{ closable: !importIccids.isPending }}
      footer={
        report ? (
          <Flex justify="flex-end" gap={8}>
            <Button onClick={reset}>{t('devices.import_another')}</Button>
            <Button type="primary" onClick={onClose}>
              {t('common.close')}
            </Button>
          </Flex>
        ) : (
          <Flex justify="flex-end" gap={8}>
            <Button onClick={onClose} disabled={importIccids.isPending}>
              {t('common.cancel')}
            </Button>
            <Button
              type="primary"
              onClick={() => void send()}
              loading={importIccids.isPending}
              disabled={!file || tooLarge}
              data-testid="iccid-import-submit"
            >
              {t('devices.import_submit')}
            </Button>
          </Flex>
        )
      }
    >
      <div data-testid="iccid-import-dialog">
        {report ? (
          <IccidImportReportView report={report} />
        ) : (
          <Flex vertical gap={16}>
            <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
              {t('devices.import_hint', {
                kb: kilobytes(DeviceLimits.importMaxBytes),
                lines: DeviceLimits.importMaxLines,
              })}
            </Typography.Paragraph>
            <FileDrop
              accept=".txt,text/plain"
              disabled={importIccids.isPending}
              onFile={(picked) => {
                // Sent by the import button, as plain text.
                setFile(picked);
                setFailure(null);
              }}
              text={t('devices.import_pick')}
              hint={t('devices.import_pick_hint')}
            />
            {file && (
              <Typography.Text data-testid="iccid-import-file">
                {t('devices.import_file', { name: file.name, kb: kilobytes(file.size) })}
              </Typography.Text>
            )}
            {tooLarge && <Alert type="error" showIcon title={t(MessageKeys.fileTooLarge)} />}
            {importIccids.isPending && (
              <Flex vertical gap={4} role="status" aria-live="polite">
                <Typography.Text>{t('devices.import_running')}</Typography.Text>
                <Progress percent={100} status="active" showInfo={false} />
              </Flex>
            )}
            {failure && (
              <Alert
                type="error"
                showIcon
                title={t('devices.import_failed')}
                description={failure}
                data-testid="iccid-import-error"
              />
            )}
          </Flex>
        )}
      </div>
    </Modal>
  );
}
