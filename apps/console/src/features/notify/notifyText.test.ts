import { AlarmDetailKeys, GeofenceAlarmTypes, NotificationTypes, SafetyAlarmTypes } from '@intercom/contract';
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/locales/en.json';
import es from '../../i18n/locales/es.json';
import ja from '../../i18n/locales/ja.json';
import zh from '../../i18n/locales/zh.json';
import { canTake, detailText, NOTIFY_TYPES, TYPE_LABELS, typeLabel } from './notifyText';

describe('alarm steps', () => {
  it('acknowledges only new alarms', () => {
    expect(canTake('acknowledge', { State: 'new' })).toBe(true);
    expect(canTake('acknowledge', { State: 'acknowledged' })).toBe(false);
    expect(canTake('acknowledge', { State: 'resolved' })).toBe(false);
  });

  it('resolves new and acknowledged alarms, never resolved ones', () => {
    expect(canTake('resolve', { State: 'new' })).toBe(true);
    expect(canTake('resolve', { State: 'acknowledged' })).toBe(true);
    expect(canTake('resolve', { State: 'resolved' })).toBe(false);
  });
});

describe('alarm types and details in every language', () => {
  const languages = { en, zh, es, ja };
  const instance = (lng: string) => {
    const i18n = createInstance();
    void i18n.init({
      lng,
      resources: Object.fromEntries(Object.entries(languages).map(([l, translation]) => [l, { translation }])),
      initAsync: false,
    });
    return i18n;
  };

  it.each(Object.keys(languages))('names every type the server raises in %s (the Type filter lists them)', (lng) => {
    const i18n = instance(lng);
    const raised = [
      ...Object.values(NotificationTypes),
      ...Object.values(SafetyAlarmTypes),
      ...Object.values(GeofenceAlarmTypes),
    ];
    expect([...NOTIFY_TYPES].sort()).toEqual([...raised].sort());
    for (const type of raised) expect(i18n.exists(TYPE_LABELS[type] ?? type), type).toBe(true);
    // In Chinese no type may read as its code (LoneWorker, NoMovement in every language before).
    if (lng === 'zh') for (const type of raised) expect(typeLabel(i18n, type), type).not.toBe(type);
  });

  it.each(Object.keys(languages))('has a text for every detail key in %s, with its parameters filled in', (lng) => {
    const i18n = instance(lng);
    for (const key of Object.values(AlarmDetailKeys)) expect(i18n.exists(key), key).toBe(true);
    const text = detailText(i18n, {
      Content: 'Battery 9%',
      Detail: { key: AlarmDetailKeys.battery, params: { percent: 9 } },
    });
    expect(text).toContain('9');
    expect(text).not.toContain('{{');
  });

  it('shows the stored text of an alarm without a key, or with a key it does not know', () => {
    const i18n = instance('zh');
    expect(detailText(i18n, { Content: 'Connection lost', Detail: null })).toBe('Connection lost');
    expect(detailText(i18n, { Content: 'Help', Detail: { key: 'alarms.detail.unknown', params: {} } })).toBe('Help');
  });
});
