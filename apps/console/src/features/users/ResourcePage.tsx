import { tk } from '../../i18n/tk';
import { PlaceholderPage } from '../../shared/ui/PlaceholderPage';

export default function ResourcePage() {
  return <PlaceholderPage title={tk('route.resources')} description={tk('placeholder.resources')} />;
}
