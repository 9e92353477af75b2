import { tk } from '../../i18n/tk';
import { PlaceholderPage } from '../../shared/ui/PlaceholderPage';

export default function NotificationsPage() {
  return <PlaceholderPage title={tk('route.notify')} description={tk('placeholder.notify')} />;
}
