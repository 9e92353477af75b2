import type { UserImportReport } from '@intercom/contract';
import { Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';

const GREEN = '#389e0d';
const AMBER = '#d48806';
const RED = '#cf1322';

/**
 * The counts of a report. A dry run says what would happen (would create...), an import what did;
 * `invalid` is the rows that failed their checks (on an import: the rows skipped).
 */
export function ImportCounts({ report, dryRun }: { report: UserImportReport; dryRun: boolean }) {
  const { t } = useTranslation();
  const invalid = report.total - report.valid;
  const items: { key: string; value: number; color?: string }[] = [
    { key: 'total', value: report.total },
    { key: dryRun ? 'would_create' : 'created', value: report.created, color: report.created ? GREEN : undefined },
    { key: dryRun ? 'would_update' : 'updated', value: report.updated, color: report.updated ? AMBER : undefined },
    { key: 'unchanged', value: report.unchanged },
    { key: dryRun ? 'invalid' : 'skipped', value: dryRun ? invalid : report.skipped, color: invalid ? RED : undefined },
    { key: 'departments', value: report.departmentsCreated },
  ];
  return (
    <Row gutter={[16, 16]} data-testid="user-import-counts">
      {items.map((item) => (
        <Col key={item.key} xs={8} sm={8} md={4} data-testid={`user-import-count-${item.key}`}>
          <Statistic
            title={t(`userImport.count.${item.key}`)}
            value={item.value}
            styles={{ content: { color: item.color } }}
          />
        </Col>
      ))}
    </Row>
  );
}
