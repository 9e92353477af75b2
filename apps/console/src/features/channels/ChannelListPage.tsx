import { tk } from '../../i18n/tk';
import { PlaceholderPage } from '../../shared/ui/PlaceholderPage';

export default function ChannelListPage() {
  return <PlaceholderPage title={tk('route.channels')} description={tk('placeholder.channels')} />;
}
