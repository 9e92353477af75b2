import { EventEmitter } from 'node:events';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Why a terminal user's live sessions must end. */
export type TerminalEndReason = 'frozen' | 'deleted' | 'recovered' | 'password';

export interface TerminalSessionEnd {
  E_ID: number;
  UserID: number;
  MobilePhone: string;
  reason: TerminalEndReason;
}

export interface TerminalEventMap {
  /** A user was frozen, deleted, recovered or got a new password: its terminal must log in again. */
  endSessions: [TerminalSessionEnd];
  /** Users were created, changed or deleted (trees and maps may refresh). */
  usersChanged: [{ E_ID: number; UserIDs: number[] }];
}

/**
 * What user management tells the real-time side after a change has committed. The terminal
 * gateway listens on `app.terminalEvents`; a listener that throws never undoes the change.
 */
export class TerminalEvents extends EventEmitter<TerminalEventMap> {
  constructor(private readonly onListenerError: (error: unknown) => void = () => undefined) {
    super();
  }

  notify<K extends keyof TerminalEventMap>(event: K, ...args: TerminalEventMap[K]): void {
    try {
      (this.emit as (event: K, ...args: TerminalEventMap[K]) => boolean)(event, ...args);
    } catch (error) {
      this.onListenerError(error);
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    terminalEvents: TerminalEvents;
  }
}

export const terminalEventsPlugin = fp(async (app: FastifyInstance) => {
  app.decorate(
    'terminalEvents',
    new TerminalEvents((error) => app.log.error({ err: error }, 'terminal event listener failed')),
  );
});
