import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { UserImportLimits } from '@intercom/contract';
import { Alert, Button, Checkbox, Flex, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRunAction } from '../../../shared/api/useRunAction';
import { downloadTemplate, type ImportOptions } from './api';

const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const kilobytes = (bytes: number) => Math.ceil(bytes / 1024);

export type FileOptions = Omit<ImportOptions, 'dryRun'>;

interface Props {
  file: File | null;
  onFile: (file: File) => void;
  options: FileOptions;
  onOptions: (options: FileOptions) => void;
  busy: boolean;
}

/** Step one: the template in the console's language, the file, and how to treat departments and bad rows. */
export function ImportFileStep({ file, onFile, options, onOptions, busy }: Props) {
  const { t, i18n } = useTranslation();
  const run = useRunAction();
  const [downloading, setDownloading] = useState<'csv' | 'xlsx' | null>(null);
  const tooLarge = file !== null && file.size > UserImportLimits.maxBytes;

  const template = (format: 'csv' | 'xlsx') => {
    setDownloading(format);
    void run(() => downloadTemplate(format, i18n.language), t('userImport.template_saved')).finally(() =>
      setDownloading(null),
    );
  };

  return (
    <Flex vertical gap={16}>
      <Flex vertical gap={8}>
        <Typography.Text strong>{t('userImport.template_title')}</Typography.Text>
        <Typography.Text type="secondary">{t('userImport.template_hint')}</Typography.Text>
        <Flex gap={8} wrap>
          <Button
            icon={<DownloadOutlined />}
            loading={downloading === 'xlsx'}
            onClick={() => template('xlsx')}
            data-testid="user-import-template-xlsx"
          >
            {t('userImport.template_xlsx')}
          </Button>
          <Button
            icon={<DownloadOutlined />}
            loading={downloading === 'csv'}
            onClick={() => template('csv')}
            data-testid="user-import-template-csv"
          >
            {t('userImport.template_csv')}
          </Button>
        </Flex>
      </Flex>
      <Upload.Dragger
        accept={ACCEPT}
        multiple={false}
        maxCount={1}
        showUploadList={false}
        disabled={busy}
        beforeUpload={(picked) => {
          onFile(picked);
          // Sent by the wizard's buttons, not by the upload widget.
          return false;
        }}
        data-testid="user-import-drop"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('userImport.pick')}</p>
        <p className="ant-upload-hint">
          {t('userImport.pick_hint', {
            mb: UserImportLimits.maxBytes / 1024 / 1024,
            rows: UserImportLimits.maxRows.toLocaleString(i18n.language),
          })}
        </p>
      </Upload.Dragger>
      {file && (
        <Typography.Text data-testid="user-import-file">
          {t('userImport.file', { name: file.name, kb: kilobytes(file.size) })}
        </Typography.Text>
      )}
      {tooLarge && <Alert type="error" showIcon title={t('userImport.file_too_large')} />}
      <Flex vertical gap={8}>
        <Checkbox
          checked={options.createDepartments}
          disabled={busy}
          onChange={(event) => onOptions({ ...options, createDepartments: event.target.checked })}
          data-testid="user-import-create-departments"
        >
          {t('userImport.create_departments')}
        </Checkbox>
        <Checkbox
          checked={options.skipInvalid}
          disabled={busy}
          onChange={(event) => onOptions({ ...options, skipInvalid: event.target.checked })}
          data-testid="user-import-skip-invalid"
        >
          {t('userImport.skip_invalid')}
        </Checkbox>
      </Flex>
    </Flex>
  );
}
