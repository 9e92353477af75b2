import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useChannelSearch } from './pickerQueries';
import { SearchPicker, type PickerField } from './SearchPicker';

/** Finds a channel by name as one types; the value is the CID. */
export function ChannelPicker(field: PickerField) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const channels = useChannelSearch(useDeferredValue(text));
  return (
    <SearchPicker
      {...field}
      onSearch={setText}
      loading={channels.isFetching}
      placeholder={t('recordings.all_channels')}
      options={(channels.data ?? []).map((channel) => ({ value: channel.CID, label: channel.CName }))}
    />
  );
}
