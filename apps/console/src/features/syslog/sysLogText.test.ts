import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../i18n/locales/en.json';
import es from '../../i18n/locales/es.json';
import ja from '../../i18n/locales/ja.json';
import zh from '../../i18n/locales/zh.json';
import { LOG_ACTIONS, actionLabel, summaryText } from './sysLogText';

const i18n = i18next.createInstance();

beforeAll(async () => {
  await i18n.init({
    lng: 'zh',
    fallbackLng: 'en',
    resources: { en: { translation: en }, zh: { translation: zh } },
    interpolation: { escapeValue: false },
  });
});

describe('system log texts', () => {
  it('translates known summary fields, failure reasons and before → after pairs', () => {
    expect(summaryText(i18n, '{"reason":"wrong_password","failures":2,"locked":false}')).toBe(
      '原因: 密码错误, 失败次数: 2, 已锁定: ' + i18n.t('common.no'),
    );
    expect(summaryText(i18n, '{"IsLock":[0,1]}')).toBe('冻结: 0 → 1');
  });

  it('keeps fields, reasons and actions a newer server added as they are', () => {
    expect(summaryText(i18n, '{"newField":"x","reason":"new_reason"}')).toBe('newField: x, 原因: new_reason');
    expect(actionLabel(i18n, 'brand_new_action')).toBe('brand_new_action');
  });

  it('names every action the server writes in all four locales (incidents, user import, geofences, safety too)', () => {
    for (const action of ['incident_create', 'incident_close', 'user_import', 'geofence_create', 'safety_settings'])
      expect(LOG_ACTIONS).toContain(action);
    for (const locale of [en, zh, es, ja]) {
      const names: Record<string, string> = locale.syslog.action;
      expect(LOG_ACTIONS.filter((action) => !names[action])).toEqual([]);
    }
    expect(actionLabel(i18n, 'incident_create')).toBe('创建事件');
    expect(actionLabel(i18n, 'user_import')).toBe('从文件导入用户');
  });

  it('shows text that is not a JSON object unchanged', () => {
    expect(summaryText(i18n, 'plain words')).toBe('plain words');
    expect(summaryText(i18n, '{broken')).toBe('{broken');
    expect(summaryText(i18n, '[1,2]')).toBe('[1,2]');
  });
});
