import type { Dayjs } from 'dayjs';

/** Form values every user of a batch or a list shares. */
export interface SharedValues {
  OS_ID?: number;
  UType?: number;
  PriorityLevel?: number | null;
  ExpireAt?: Dayjs | null;
}

export const SHARED_DEFAULTS: SharedValues = { UType: 0, PriorityLevel: 0, ExpireAt: null };

/** The shared part of a BatchAdd / ListAdd body. */
export function sharedBody(values: SharedValues, enterpriseId: number | undefined) {
  return {
    E_ID: enterpriseId,
    OS_ID: values.OS_ID ?? 0,
    UType: values.UType ?? 0,
    PriorityLevel: values.PriorityLevel ?? 0,
    ExpireAt: values.ExpireAt ? values.ExpireAt.endOf('day').valueOf() : null,
  };
}
