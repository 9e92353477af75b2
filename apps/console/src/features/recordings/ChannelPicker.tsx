import { Select } from 'antd';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useChannelSearch } from './api';

/** Finds a channel by name as one types; the value is the CID. */
export function ChannelPicker({
  value,
  onChange,
  id,
}: {
  value?: number;
  onChange?: (value: number | undefined) => void;
  id?: string;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const deferred = useDeferredValue(text);
  const channels = useChannelSearch(deferred);
  return (
    <Select<number>
      id={id}
      value={value}
      onChange={(next) => onChange?.(next)}
      allowClear
      showSearch={{ filterOption: false, onSearch: setText }}
      loading={channels.isFetching}
      placeholder={t('recordings.all_channels')}
      notFoundContent={channels.isFetching ? t('common.loading') : t('list.no_match')}
      options={(channels.data ?? []).map((channel) => ({ value: channel.CID, label: channel.CName }))}
      style={{ width: '100%' }}
    />
  );
}
