import { tk } from '../../i18n/tk';
import { PlaceholderPage } from '../../shared/ui/PlaceholderPage';

export default function LiveMapPage() {
  return <PlaceholderPage title={tk('route.map')} description={tk('placeholder.map')} />;
}
