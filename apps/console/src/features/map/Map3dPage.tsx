import { tk } from '../../i18n/tk';
import { PlaceholderPage } from '../../shared/ui/PlaceholderPage';

export default function Map3dPage() {
  return <PlaceholderPage title={tk('route.map3d')} description={tk('placeholder.map3d')} />;
}
