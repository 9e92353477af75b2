import { DownloadOutlined } from '@ant-design/icons';
import { UserImportLimits } from '@intercom/contract';
import { Alert, Button, Checkbox, Flex, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tk } from '../../../i18n/tk';
import { useRunAction } from '../../../shared/api/useRunAction';
import { FileDrop } from '../../../shared/ui/FileDrop';
import { downloadTemplate, type ImportOptions } from './api';

const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const kilobytes = (bytes: number) => Math.ceil(bytes / 1024);
const TEMPLATES = [
  { format: 'xlsx', label: tk('userImport.template_xlsx') },
  { format: 'csv', label: tk('userImport.template_csv') },
] as const;

export type FileOptions = Omit<ImportOptions, 'dryRun'>;

interface Props {
  file: File | null;
  onFile: (file: File) => void;
  options: FileOptions;
  onOptions: (options: FileOptions) => void;
  busy: boolean;
}

/** One of the file options, as a checkbox. */
export function ImportOption({
  name,
  options,
  onOptions,
  busy,
  label,
  testId,
}: Pick<Props, 'options' | 'onOptions' | 'busy'> & { name: keyof FileOptions; label: string; testId: string }) {
  return (
    <Checkbox
      checked={options[name]}
      disabled={busy}
      onChange={(event) => onOptions({ ...options, [name]: event.target.checked })}
      data-testid={testId}
    >
      {label}
    </Checkbox>
  );
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
          {TEMPLATES.map(({ format, label }) => (
            <Button
              key={format}
              icon={<DownloadOutlined />}
              loading={downloading === format}
              onClick={() => template(format)}
              data-testid={`user-import-template-${format}`}
            >
              {t(label)}
            </Button>
          ))}
        </Flex>
      </Flex>
      {/* Sent by the wizard's buttons. */}
      <FileDrop
        accept={ACCEPT}
        disabled={busy}
        onFile={onFile}
        text={t('userImport.pick')}
        hint={t('userImport.pick_hint', {
          mb: UserImportLimits.maxBytes / 1024 / 1024,
          rows: UserImportLimits.maxRows.toLocaleString(i18n.language),
        })}
        testId="user-import-drop"
      />
      {file && (
        <Typography.Text data-testid="user-import-file">
          {t('userImport.file', { name: file.name, kb: kilobytes(file.size) })}
        </Typography.Text>
      )}
      {tooLarge && <Alert type="error" showIcon title={t('userImport.file_too_large')} />}
      <Flex vertical gap={8}>
        <ImportOption
          name="createDepartments"
          {...{ options, onOptions, busy }}
          label={t('userImport.create_departments')}
          testId="user-import-create-departments"
        />
        <ImportOption
          name="skipInvalid"
          {...{ options, onOptions, busy }}
          label={t('userImport.skip_invalid')}
          testId="user-import-skip-invalid"
        />
      </Flex>
    </Flex>
  );
}
