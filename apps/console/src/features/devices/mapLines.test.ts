import { describe, expect, it } from 'vitest';
import { lineProblems, parseIccidLines, parsePairLines } from './mapLines';

const ICCID = '89860012345678901234';

describe('ICCID text areas', () => {
  it('numbers lines as the user sees them and skips blank ones', () => {
    const { lines, problems } = parseIccidLines(`\n${ICCID}\r\n  \n123\n`);
    expect(lines.map((l) => l.line)).toEqual([2, 4]);
    expect(problems).toEqual([{ line: 4, key: 'user.iccid_length' }]);
  });

  it('reads pairs separated by spaces, tabs, commas or semicolons', () => {
    const { pairs, problems } = parsePairLines(`${ICCID}\t13800000001\n${ICCID},13800000002\n${ICCID}; 1\nonly`);
    expect(pairs).toHaveLength(3);
    expect(problems).toEqual([
      { line: 3, key: 'user.phone_invalid' },
      { line: 4, key: 'devices.pair_format' },
    ]);
  });

  it('maps the server item index back to the line number', () => {
    const { lines } = parseIccidLines(`\n\n${ICCID}\n\n${ICCID}`);
    expect(lineProblems([{ field: 'ICCIDs.1', key: 'user.iccid_exists' }], lines)).toEqual([
      { line: 5, key: 'user.iccid_exists' },
    ]);
    expect(lineProblems([{ field: 'pairs.0.MobilePhone', key: 'error.not_found' }], lines)).toEqual([
      { line: 3, key: 'error.not_found' },
    ]);
  });
});
