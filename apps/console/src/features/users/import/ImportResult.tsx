import { DownloadOutlined } from '@ant-design/icons';
import type { UserImportReport } from '@intercom/contract';
import { Alert, Button, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { saveImportReport, savePasswords } from './api';
import { ImportCounts } from './ImportCounts';
import { ImportErrorTable, useImportErrorText, useImportFieldName } from './ImportErrorTable';
import { importReportCsv } from './importReportCsv';

interface Props {
  report: UserImportReport;
  passwordsSaved: boolean;
  onPasswordsSaved: () => void;
}

/** The last step: what the import did, the rows it skipped, and the generated passwords (offered once). */
export function ImportResult({ report, passwordsSaved, onPasswordsSaved }: Props) {
  const { t } = useTranslation();
  const message = useImportErrorText();
  const fieldName = useImportFieldName();
  const downloadReport = () => {
    const header = {
      row: t('userImport.row'),
      field: t('userImport.field'),
      code: t('userImport.report_code'),
      message: t('userImport.problem'),
    };
    const rowText = (row: number) => (row === 0 ? t('userImport.whole_file') : String(row));
    saveImportReport(importReportCsv(report.errors, { header, rowText, fieldName, message }));
  };
  return (
    <Flex vertical gap={16} data-testid="user-import-result">
      <Alert
        type={report.written ? 'success' : 'error'}
        showIcon
        title={report.written ? t('userImport.done') : t('userImport.not_written')}
      />
      <ImportCounts report={report} dryRun={false} />
      {report.PasswordsCsv && (
        <Alert
          type="warning"
          showIcon
          title={t('userImport.passwords_title')}
          description={
            <Flex vertical gap={8} align="flex-start">
              <span>{t('userImport.passwords_once')}</span>
              <Button
                type="primary"
                icon={<DownloadOutlined />}
                onClick={() => {
                  savePasswords(report.PasswordsCsv as string);
                  onPasswordsSaved();
                }}
                data-testid="user-import-passwords"
              >
                {passwordsSaved ? t('userImport.passwords_again') : t('userImport.passwords_download')}
              </Button>
            </Flex>
          }
        />
      )}
      <Button
        icon={<DownloadOutlined />}
        onClick={downloadReport}
        style={{ alignSelf: 'flex-start' }}
        data-testid="user-import-report"
      >
        {t('userImport.report_download')}
      </Button>
      {report.errors.length > 0 && <ImportErrorTable errors={report.errors} />}
    </Flex>
  );
}
