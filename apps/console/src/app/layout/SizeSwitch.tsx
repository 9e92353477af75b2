import { FontSizeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { COMPONENT_SIZES, usePreferences, type ComponentSize } from '../PreferencesContext';
import { tk } from '../../i18n/tk';
import { ChoiceMenu } from './ChoiceMenu';

const SIZE_LABELS: Record<ComponentSize, string> = {
  small: tk('layout.size_small'),
  medium: tk('layout.size_medium'),
  large: tk('layout.size_large'),
};

/** Component size of the whole console (small, medium, large); the choice is stored as `size`. */
export function SizeSwitch() {
  const { t } = useTranslation();
  const { size, setSize } = usePreferences();
  return (
    <ChoiceMenu
      icon={<FontSizeOutlined />}
      label={t('layout.size')}
      selected={size}
      items={COMPONENT_SIZES.map((key) => ({ key, label: t(SIZE_LABELS[key]) }))}
      onPick={(key) => setSize(key as ComponentSize)}
    />
  );
}
