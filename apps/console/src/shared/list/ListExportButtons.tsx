import { DownloadOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tk } from '../../i18n/tk';
import { wasShown } from '../api/ApiError';
import { useErrorMessage } from '../api/useErrorMessage';
import { exportEntity, type EntityResource, type ExportFormat } from './entityResource';
import type { ListParams } from './listParams';
import { useToast } from '../ui/ToastContext';

const LABELS: Record<ExportFormat, string> = { csv: tk('list.export_csv'), xlsx: tk('list.export_xlsx') };

/** Export of what the list shows (its filter and order, every page) as CSV or XLSX. */
export function ListExportButtons<T>({
  resource,
  params,
  formats,
}: {
  resource: EntityResource<T>;
  params: ListParams;
  formats: readonly ExportFormat[];
}) {
  const { t } = useTranslation();
  const message = useToast();
  const errorMessage = useErrorMessage();
  const [busy, setBusy] = useState<ExportFormat | null>(null);

  const run = async (format: ExportFormat) => {
    setBusy(format);
    try {
      await exportEntity(resource, params, format);
    } catch (error) {
      // Connection failures and ended sessions were already shown by the API client.
      if (!wasShown(error)) {
        message.error({ content: errorMessage(error), duration: 5 });
      }
    } finally {
      setBusy(null);
    }
  };

  return (
    <Space wrap>
      {formats.map((format) => (
        <Button
          key={format}
          icon={<DownloadOutlined />}
          loading={busy === format}
          disabled={busy !== null && busy !== format}
          onClick={() => void run(format)}
        >
          {t(LABELS[format])}
        </Button>
      ))}
    </Space>
  );
}
