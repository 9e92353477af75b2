import { Code, MessageKeys } from '@intercom/contract';

/** Success envelope with one object in BaseData. */
export function ok<T>(baseData: T) {
  return { BaseResult: { Code: Code.Success, Message: '' }, BaseData: baseData };
}

/** Success envelope with a list and its total (paged queries). */
export function list<T>(data: T[], total: number = data.length) {
  return { BaseResult: { Code: Code.Success, Message: '' }, Data: data, Total: total };
}

/** Success envelope with nothing but the result (mutations). */
export function done(message: string = MessageKeys.ok) {
  return { BaseResult: { Code: Code.Success, Message: message } };
}
