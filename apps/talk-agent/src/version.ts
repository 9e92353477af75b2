import fs from 'node:fs';

// The bundle (scripts/build.mjs) defines this; from source the package.json beside src/ says it.
declare const __TALK_AGENT_VERSION__: string | undefined;

function packageVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export const AGENT_VERSION: string =
  typeof __TALK_AGENT_VERSION__ === 'string' ? __TALK_AGENT_VERSION__ : packageVersion();

/** True when running as the single bundled script the server hands out (self-update replaces it). */
export const IS_BUNDLE: boolean = typeof __TALK_AGENT_VERSION__ === 'string';
