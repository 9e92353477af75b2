import { LoadingOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Form, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../ui/useIsMobile';
import styles from './ListFilterBar.module.css';

interface ListFilterBarProps<F> {
  children: ReactNode;
  onSearch: (values: F) => void;
  onReset: () => void;
  searching: boolean;
}

/** The filter form above a list: the page's fields, then Search and Reset (clickable while the list loads). */
export function ListFilterBar<F extends object>({ children, onSearch, onReset, searching }: ListFilterBarProps<F>) {
  const { t } = useTranslation();
  const [form] = Form.useForm<F>();
  const mobile = useIsMobile();
  return (
    <Form<F>
      form={form}
      // Field ids become `filter_<field>`: an edit form open beside the list may have the same fields.
      name="filter"
      layout={mobile ? 'vertical' : 'inline'}
      className={mobile ? styles.stacked : styles.inline}
      onFinish={onSearch}
      style={mobile ? undefined : { rowGap: 12 }}
      data-testid="list-filters"
    >
      {children}
      <Form.Item>
        <Space wrap>
          {/* Not antd's `loading`: a loading button swallows clicks, and the list refetches whenever the
              hub says it changed (a new alarm), so a search clicked then was lost. The icon spins instead. */}
          <Button type="primary" htmlType="submit" icon={searching ? <LoadingOutlined /> : <SearchOutlined />}>
            {t('list.search')}
          </Button>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => {
              form.resetFields();
              onReset();
            }}
          >
            {t('list.reset')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
