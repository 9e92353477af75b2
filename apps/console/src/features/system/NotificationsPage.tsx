/** The route's page lives with the rest of the alarm feature. */
export { default } from '../notify/AlarmRecordsPage';
