import { tk } from '../../i18n/tk';
import { PlaceholderPage } from '../../shared/ui/PlaceholderPage';

export default function PluginDownloadPage() {
  return <PlaceholderPage title={tk('route.plugin')} description={tk('placeholder.plugin')} />;
}
