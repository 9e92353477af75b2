import { SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Flex, Popover } from 'antd';
import { useTranslation } from 'react-i18next';

export interface ColumnChoice {
  key: string;
  title: string;
}

/** The column chooser of a list: one checkbox per column that may be hidden, and a reset. */
export function ColumnSettings({
  choices,
  hidden,
  onChange,
  defaultHidden,
}: {
  choices: ColumnChoice[];
  hidden: string[];
  onChange: (hidden: string[]) => void;
  defaultHidden: readonly string[];
}) {
  const { t } = useTranslation();
  const visible = choices.map((c) => c.key).filter((key) => !hidden.includes(key));
  const content = (
    <Flex vertical gap={8} style={{ minWidth: 180 }} data-testid="column-settings">
      <Checkbox.Group
        value={visible}
        onChange={(keys) => {
          const shown = keys.map(String);
          // At least one column stays, or the table would have nothing to show.
          if (shown.length === 0) return;
          onChange(choices.map((c) => c.key).filter((key) => !shown.includes(key)));
        }}
      >
        <Flex vertical gap={6}>
          {choices.map((choice) => (
            <Checkbox key={choice.key} value={choice.key}>
              {choice.title}
            </Checkbox>
          ))}
        </Flex>
      </Checkbox.Group>
      <Button size="small" onClick={() => onChange([...defaultHidden])}>
        {t('list.columns_reset')}
      </Button>
    </Flex>
  );
  return (
    <Popover trigger="click" placement="bottomRight" title={t('list.columns')} content={content}>
      <Button icon={<SettingOutlined />} aria-label={t('list.columns')} title={t('list.columns')} />
    </Popover>
  );
}
