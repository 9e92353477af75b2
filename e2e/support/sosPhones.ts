import { expect } from 'vitest';
import { RawTerminal } from './rawTerminal.js';
import { createTerminalUser, useTestTerminals } from './terminal.js';

/** A phone that has raised SOS: its socket, the alarm's ack, and when it sent the SOS (for `push`). */
export interface SosPhone {
  terminal: RawTerminal;
  ack: Record<string, unknown>;
  sent: number;
}

/**
 * Phones that raise SOS in one file's tests, removed after them with their alarms resolved: an open
 * SOS banner would cover every later file's map (the e2e server is shared). `device` names the file.
 */
export function useSosPhones(device: string) {
  const made = useTestTerminals<RawTerminal>();
  const phoneOf = (suffix: string) => `137${made.stamp}${suffix}`;
  return {
    /** The phone number `raise` gives the user of `suffix`. */
    phoneOf,
    /**
     * A new terminal user `137<stamp><suffix>` named `<name> <stamp> <suffix>` (made with the admin's
     * `token`), logged in, that sends `sos` (type 'sos' with these fields) and gets its ack.
     */
    async raise(token: string, name: string, suffix: string, sos: Record<string, unknown>): Promise<SosPhone> {
      made.token = token;
      const phone = phoneOf(suffix);
      made.users.push(await createTerminalUser(token, `${name} ${made.stamp} ${suffix}`, phone));
      const terminal = await RawTerminal.login(phone, device);
      made.terminals.push(terminal);
      const sent = Date.now();
      const ack = await terminal.send({ type: 'sos', ...sos });
      expect(ack.type).toBe('ack');
      return { terminal, ack, sent };
    },
  };
}
