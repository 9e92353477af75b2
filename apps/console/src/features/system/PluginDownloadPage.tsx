/** The route's page lives with the rest of the plugin feature. */
export { default } from '../plugin/PluginPage';
