import { TerminalCloseCodes, TerminalErrors } from '@intercom/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../appDeps.js';
import { verifyAgainstDummy, verifyPassword } from '../auth/passwords.js';
import type { LoginThrottle } from '../bus/loginThrottle.js';
import { LoginAddressLimit } from './loginAddressLimit.js';
import type { LoginClock } from './loginClock.js';
import type { TerminalConnection } from './terminalConnection.js';
import type { TerminalOptions } from './terminalOptions.js';
import type { TerminalUser } from './terminalUsers.js';

type ErrorCode = (typeof TerminalErrors)[keyof typeof TerminalErrors];

/** Why a login is refused: the error's code and hint, and when to try again. */
export interface LoginRefusal {
  code: ErrorCode;
  text: string;
  retryAfterMs?: number;
}

export const BAD_CREDENTIALS: LoginRefusal = {
  code: TerminalErrors.badCredentials,
  text: 'unknown phone or wrong password',
};

/**
 * Refusals that count toward the socket's `loginFailuresPerSocket`; not frozen, expired or disabled,
 * which follow a right password.
 */
const FAILED_LOGIN: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  TerminalErrors.badCredentials,
  TerminalErrors.tooManyAttempts,
  TerminalErrors.loginRateLimited,
  TerminalErrors.badAuthCode,
]);

/**
 * The limits on failed terminal logins (docs/security.md "Terminal logins"): wrong passwords per phone
 * (the lock), failed logins per client address, and per socket. The gateway asks it before a password
 * is checked and tells it every refusal.
 */
export class TerminalLoginChecks {
  /** Wrong passwords per phone (the lock). */
  private readonly throttle: LoginThrottle;
  /** Failed logins per client address. */
  private readonly addressLimit: LoginAddressLimit;

  constructor(
    private readonly deps: AppDeps,
    private readonly options: TerminalOptions,
    log: FastifyBaseLogger,
    private readonly clock: LoginClock,
  ) {
    this.throttle = deps.realtime.loginThrottle(
      { maxFailures: options.loginMaxFailures, lockMs: options.loginLockMs },
      log,
    );
    this.addressLimit = new LoginAddressLimit(
      deps.realtime.countWindows(log, 'terminal-login', 'terminal login limit per IP'),
      { maxFailures: options.loginIpMaxFailures, windowMs: options.loginIpWindowMs },
      log,
    );
  }

  /**
   * Why a login that no good token let in is refused, or null when its password is right. A token that
   * is not good, sent without a password, guesses no password: it counts toward the address, not the
   * phone's lock. A phone nobody has costs what a wrong password does, so the answer's time does not
   * tell which phones exist.
   */
  async passwordFailure(
    ip: string,
    phone: string,
    user: TerminalUser | undefined,
    password: string | undefined,
  ): Promise<LoginRefusal | null> {
    const limitedFor = await this.addressLimit.limitedFor(ip, this.clock.now());
    if (limitedFor > 0) {
      const text = 'too many failed logins from this address';
      return { code: TerminalErrors.loginRateLimited, text, retryAfterMs: limitedFor };
    }
    const lockedFor = await this.throttle.lockedFor(phone, this.clock.now());
    if (lockedFor > 0) {
      return { code: TerminalErrors.tooManyAttempts, text: 'too many wrong passwords', retryAfterMs: lockedFor };
    }
    if (password === undefined) {
      await this.addressLimit.failed(ip, this.clock.now());
      return BAD_CREDENTIALS;
    }
    const valid = user
      ? await verifyPassword(password, user.PasswordHash).catch(() => false)
      : await verifyAgainstDummy(password, this.deps.passwordLogN).then(
          () => false,
          () => false,
        );
    if (valid) {
      await this.throttle.succeeded(phone);
      return null;
    }
    const now = this.clock.now();
    await Promise.all([this.throttle.failed(phone, now), this.addressLimit.failed(ip, now)]);
    return BAD_CREDENTIALS;
  }

  /**
   * Answers a refused login. A failed one (credentials, lock, address limit, AuthCode) counts toward the
   * socket: at `loginFailuresPerSocket` the socket closes (4005 `login_failures`), so a stranger pays a
   * new connection every few tries.
   */
  refuse(connection: TerminalConnection, seq: number, refusal: LoginRefusal): void {
    if (connection.state === 'loggingIn') connection.state = 'new';
    this.deps.metrics.loginFailures.inc({ kind: 'terminal', reason: refusal.code });
    connection.error(seq, refusal.code, refusal.text, undefined, refusal.retryAfterMs);
    if (!FAILED_LOGIN.has(refusal.code)) return;
    connection.loginFailures += 1;
    if (connection.loginFailures >= this.options.loginFailuresPerSocket) {
      connection.close('login_failures', TerminalCloseCodes.loginFailures);
    }
  }

  /** A failed login that no password was checked for (a bad AuthCode): it counts toward the address. */
  addressFailed(ip: string): Promise<void> {
    return this.addressLimit.failed(ip, this.clock.now());
  }

  prune(): void {
    this.throttle.prune(this.clock.now());
  }
}
