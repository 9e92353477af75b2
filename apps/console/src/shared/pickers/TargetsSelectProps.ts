/**
 * A form control choosing the targets of a fence or a safety setting within one enterprise (users
 * or departments); the value is their ids.
 */
export interface TargetsSelectProps {
  enterpriseId: number | undefined;
  value?: number[];
  onChange?: (value: number[]) => void;
  id?: string;
}
