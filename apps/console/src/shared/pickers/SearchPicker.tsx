import { Select } from 'antd';
import { useTranslation } from 'react-i18next';

/** What a form gives a picker of one id. */
export interface PickerField {
  value?: number;
  onChange?: (value: number | undefined) => void;
  id?: string;
}

export interface SearchPickerProps extends PickerField {
  /** The text typed: the caller asks the server for what matches it. */
  onSearch: (text: string) => void;
  options: { value: number; label: string }[];
  loading: boolean;
  placeholder: string;
}

/** One id picked from what the server finds as one types (a user, a channel); the shell of those pickers. */
export function SearchPicker({ value, onChange, onSearch, options, loading, placeholder, id }: SearchPickerProps) {
  const { t } = useTranslation();
  return (
    <Select<number>
      id={id}
      value={value}
      onChange={(next) => onChange?.(next)}
      allowClear
      showSearch={{ filterOption: false, onSearch }}
      loading={loading}
      placeholder={placeholder}
      notFoundContent={loading ? t('common.loading') : t('list.no_match')}
      options={options}
      style={{ width: '100%' }}
    />
  );
}
