import type { MapResult } from '@intercom/contract';
import { Alert, Flex, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LineProblem } from './mapLines';

/** The pairs a mapping call put in place. */
export function MapResultView({ result }: { result: MapResult }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={8} data-testid="map-result">
      <Alert type="success" showIcon title={t('devices.mapped_count', { count: result.pairs.length })} />
      <Table
        size="small"
        rowKey="ICCID"
        dataSource={result.pairs}
        pagination={result.pairs.length > 10 ? { pageSize: 10, size: 'small', showSizeChanger: false } : false}
        columns={[
          {
            key: 'ICCID',
            dataIndex: 'ICCID',
            title: t('users.iccid'),
            render: (value: string) => <Typography.Text code>{value}</Typography.Text>,
          },
          { key: 'UserName', dataIndex: 'UserName', title: t('users.name') },
          { key: 'MobilePhone', dataIndex: 'MobilePhone', title: t('users.phone') },
        ]}
      />
    </Flex>
  );
}

/** The lines that stopped a mapping (nothing was mapped), each with its number. */
export function LineProblems({ problems, title }: { problems: LineProblem[]; title: string }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      title={title}
      data-testid="map-problems"
      description={
        <ul style={{ margin: 0, paddingInlineStart: 18, maxHeight: 180, overflow: 'auto' }}>
          {problems.slice(0, 100).map((problem, index) => (
            <li key={`${problem.line}-${index}`}>
              {problem.line > 0
                ? t('devices.line_problem', { line: problem.line, problem: t(problem.key) })
                : t(problem.key)}
            </li>
          ))}
        </ul>
      }
    />
  );
}
