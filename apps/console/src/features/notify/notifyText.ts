import {
  GeofenceAlarmTypes,
  NotificationTypes,
  NotifyStates,
  SafetyAlarmTypes,
  type AlarmDetail,
  type NotifyRow,
  type NotifyState,
} from '@intercom/contract';
import type { i18n as I18n } from 'i18next';
import { tk } from '../../i18n/tk';
import type { NotifyStep } from './api';

/** The alarm types the platform raises today; a type a newer server added shows as it is. */
export const NOTIFY_TYPES: readonly string[] = [
  ...Object.values(NotificationTypes),
  ...Object.values(SafetyAlarmTypes),
  ...Object.values(GeofenceAlarmTypes),
];

export const TYPE_LABELS: Record<string, string> = {
  [NotificationTypes.sos]: tk('alarms.type_sos'),
  [NotificationTypes.lowBattery]: tk('alarms.type_low_battery'),
  [NotificationTypes.offline]: tk('alarms.type_offline'),
  [NotificationTypes.heartRate]: tk('alarms.type_heart_rate'),
  [SafetyAlarmTypes.loneWorker]: tk('alarms.type_lone_worker'),
  [SafetyAlarmTypes.noMovement]: tk('alarms.type_no_movement'),
  [SafetyAlarmTypes.manDown]: tk('alarms.type_man_down'),
  [GeofenceAlarmTypes.enter]: tk('geofence.alarm_enter'),
  [GeofenceAlarmTypes.exit]: tk('geofence.alarm_exit'),
  [GeofenceAlarmTypes.dwell]: tk('geofence.alarm_dwell'),
};

export const TYPE_COLORS: Record<string, string> = {
  [NotificationTypes.sos]: 'red',
  [NotificationTypes.lowBattery]: 'orange',
  [NotificationTypes.offline]: 'default',
  [NotificationTypes.heartRate]: 'magenta',
  [SafetyAlarmTypes.loneWorker]: 'orange',
  [SafetyAlarmTypes.noMovement]: 'gold',
  [SafetyAlarmTypes.manDown]: 'red',
  [GeofenceAlarmTypes.enter]: 'cyan',
  [GeofenceAlarmTypes.exit]: 'volcano',
  [GeofenceAlarmTypes.dwell]: 'gold',
};

export function typeLabel(i18n: I18n, type: string): string {
  const key = TYPE_LABELS[type];
  return key ? i18n.t(key) : type;
}

/**
 * An alarm's details in the reader's language: those the server wrote as a key and parameters
 * (AlarmDetailKeys) are translated; a key this console does not know yet, an alarm stored before
 * issue 51 and a terminal's own words show `Content` as it is.
 */
export function detailText(i18n: I18n, alarm: { Content: string; Detail?: AlarmDetail | null }): string {
  const detail = alarm.Detail;
  if (!detail || !i18n.exists(detail.key)) return alarm.Content;
  return i18n.t(detail.key, detail.params);
}

export const NOTIFY_STATES = Object.values(NotifyStates);

export const STATE_LABELS: Record<NotifyState, string> = {
  new: tk('alarms.state_new'),
  acknowledged: tk('alarms.state_acknowledged'),
  resolved: tk('alarms.state_resolved'),
};

export const STATE_COLORS: Record<NotifyState, string> = {
  new: 'red',
  acknowledged: 'gold',
  resolved: 'green',
};

export function stateLabel(i18n: I18n, state: string): string {
  const key = STATE_LABELS[state as NotifyState] as string | undefined;
  return key ? i18n.t(key) : state;
}

/** The states each step starts from (docs/api.md "Alarm records"): the server refuses the others. */
const STEP_FROM: Record<NotifyStep, readonly string[]> = {
  acknowledge: [NotifyStates.new],
  resolve: [NotifyStates.new, NotifyStates.acknowledged],
};

export function canTake(step: NotifyStep, alarm: Pick<NotifyRow, 'State'>): boolean {
  return STEP_FROM[step].includes(alarm.State);
}
