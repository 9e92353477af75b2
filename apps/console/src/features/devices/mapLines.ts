import { checkIccid, checkPhone, MessageKeys, type FieldError } from '@intercom/contract';
import { tk } from '../../i18n/tk';

/** One non-blank line of a text area, with its number as the user sees it. */
export interface NumberedLine {
  line: number;
  text: string;
}

export function numberedLines(text: string): NumberedLine[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((raw, index) => ({ line: index + 1, text: raw.trim() }))
    .filter((entry) => entry.text !== '');
}

/** A problem of one line: its number and the i18n key of what is wrong. */
export interface LineProblem {
  line: number;
  key: string;
}

/** The ICCIDs of a FastMapICCID text area (one per line) and what is wrong with each. */
export function parseIccidLines(text: string): { lines: NumberedLine[]; problems: LineProblem[] } {
  const lines = numberedLines(text);
  const problems = lines.flatMap(({ line, text: value }) => {
    const key = checkIccid(value);
    return key ? [{ line, key }] : [];
  });
  return { lines, problems };
}

/** `ICCID phone` (space, tab, comma or semicolon between) per line, as NoneSeriesMap pairs. */
export function parsePairLines(text: string): {
  lines: NumberedLine[];
  pairs: { ICCID: string; MobilePhone: string }[];
  problems: LineProblem[];
} {
  const lines = numberedLines(text);
  const pairs: { ICCID: string; MobilePhone: string }[] = [];
  const problems: LineProblem[] = [];
  for (const { line, text: value } of lines) {
    const parts = value.split(/[\s,;]+/).filter(Boolean);
    if (parts.length !== 2) {
      problems.push({ line, key: tk('devices.pair_format') });
      continue;
    }
    const [ICCID = '', MobilePhone = ''] = parts;
    const key = checkIccid(ICCID) ?? checkPhone(MobilePhone);
    if (key) problems.push({ line, key });
    pairs.push({ ICCID, MobilePhone });
  }
  return { lines, pairs, problems };
}

/**
 * Field errors of a list call (`ICCIDs.3`, `pairs.2.MobilePhone`) as line problems: item `i` of
 * what was sent is `lines[i]` of the text area.
 */
export function lineProblems(fields: FieldError[], lines: NumberedLine[]): LineProblem[] {
  return fields.map((field) => {
    const index = Number(/^\w+\.(\d+)/.exec(field.field)?.[1] ?? NaN);
    return { line: lines[index]?.line ?? 0, key: field.key || MessageKeys.invalid };
  });
}
