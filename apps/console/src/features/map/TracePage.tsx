import { tk } from '../../i18n/tk';
import { PlaceholderPage } from '../../shared/ui/PlaceholderPage';

export default function TracePage() {
  return <PlaceholderPage title={tk('route.trace')} description={tk('placeholder.trace')} />;
}
