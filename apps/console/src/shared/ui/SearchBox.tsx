import { SearchOutlined } from '@ant-design/icons';
import { Input } from 'antd';
import type { CSSProperties } from 'react';

/** The search field above a list to pick from: searches as one types, its placeholder is its name. */
export function SearchBox({
  value,
  onChange,
  label,
  style,
}: {
  value: string;
  onChange: (text: string) => void;
  label: string;
  style?: CSSProperties;
}) {
  return (
    <Input
      value={value}
      onChange={(event) => onChange(event.target.value)}
      allowClear
      autoFocus
      maxLength={64}
      prefix={<SearchOutlined />}
      placeholder={label}
      aria-label={label}
      style={style}
    />
  );
}
