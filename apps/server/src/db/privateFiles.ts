import fs from 'node:fs';

// DATA_DIR holds the SQLite database (password hashes, the login private key in `server_key`, session
// records), uploaded media and recordings: only the server's own user may read it. mkdir's and open's
// modes are masked by the umask but never widened by it, and an existing folder keeps whatever mode it
// had; so each is created owner-only and then checked.

const warnOnStderr = (message: string) => process.stderr.write(`${message}\n`);

/**
 * Creates `dir` (and missing parents) with mode 0700; an existing one that others may read is made
 * 0700 and `warn` says so (once: afterwards it is 0700). A folder the server may not chmod (another
 * user's) is only reported.
 */
export function ensurePrivateDir(dir: string, warn: (message: string) => void = warnOnStderr): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const mode = fs.statSync(dir).mode & 0o777;
  if (mode === 0o700) return;
  try {
    fs.chmodSync(dir, 0o700);
    warn(`${dir} had mode ${mode.toString(8)}: made owner-only (0700), it holds password hashes and the login key`);
  } catch (error) {
    warn(`${dir} has mode ${mode.toString(8)} and cannot be made 0700: ${(error as Error).message}`);
  }
}

/** Makes each existing file of `files` mode 0600 (owner read and write only). */
export function makePrivateFiles(files: readonly string[]): void {
  if (process.platform === 'win32') return;
  for (const file of files) {
    let mode: number;
    try {
      mode = fs.statSync(file).mode & 0o777;
    } catch {
      continue;
    }
    if (mode !== 0o600) fs.chmodSync(file, 0o600);
  }
}
