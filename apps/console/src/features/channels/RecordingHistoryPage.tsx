/** The route's page lives with the rest of the recording feature. */
export { default } from '../recordings/RecordingHistoryPage';
