/**
 * i18n keys the server may put in `BaseResult.Message` or a field error. The console's locales
 * must hold every one of them (a test checks it), so a server message always reaches the user
 * translated.
 */
export const MessageKeys = {
  ok: 'common.oper_success',
  failed: 'common.oper_failed',
  internal: 'error.internal',
  tokenMissing: 'error.token_missing',
  tokenExpired: 'error.token_expired',
  sessionReplaced: 'error.session_replaced',
  sessionEnded: 'error.session_ended',
  forbidden: 'error.forbidden',
  notFound: 'error.not_found',
  tooMany: 'error.too_many',
  validation: 'error.validation',
  required: 'validation.required',
  invalid: 'validation.invalid',
  tooLong: 'validation.too_long',
  tooShort: 'validation.too_short',
  notNumber: 'validation.not_number',
  outOfRange: 'validation.out_of_range',
  unknownField: 'query.unknown_field',
  unknownOp: 'query.unknown_op',
  badCondition: 'query.bad_condition',
  badOrderField: 'query.bad_order_field',
  loginBadEnvelope: 'login.bad_envelope',
  loginUnknownKey: 'login.unknown_key',
  loginClockSkew: 'login.clock_skew',
  loginReplay: 'login.replay',
  loginWrongCredentials: 'login.wrong_credentials',
  loginLocked: 'login.locked',
  loginDisabled: 'login.disabled',
  loginEnterpriseExpired: 'login.enterprise_expired',
  loginRefreshInvalid: 'login.refresh_invalid',
  lpsdNotEmpty: 'managent.lpsd_notempty',
  lcpsdNotCorrect: 'managent.lcpsd_notcorrect',
  psdNotEqual: 'managent.psd_notequal',
  oldPasswordWrong: 'managent.old_password_wrong',
  samePassword: 'managent.same_password',
  unknownConfig: 'config.unknown_code',
  badConfigValue: 'config.bad_value',
} as const;

export type MessageKey = (typeof MessageKeys)[keyof typeof MessageKeys];
