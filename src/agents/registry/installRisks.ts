// What a registry entry may not do without the user seeing it, in one place. An entry's `env` is
// written to the user's settings with the agent, and some variables change what runs rather than
// how the agent behaves: a loader variable (`NODE_OPTIONS=--require …`, `LD_PRELOAD`) puts other
// code into the agent, an installer variable (`npm_config_registry`, `UV_INDEX_URL`) makes npx or
// uvx fetch the package from elsewhere than the name on screen says. Those are refused, with the
// reason. Every other variable is shown as NAME=value before anything is written, so a value that
// cannot be shown on one line is refused too. Registry files come over https (or from the user's
// own files, or this machine), and an archive without a SHA-256 is installed only after a second
// confirmation that names the risk. Pure.

/** A variable the entry sets that Symposium will not write, and why. */
export interface RefusedVariable {
  name: string;
  reason: string;
}

const LOADS_CODE = 'loads other code into the programs it starts';
const INSTALLS_FROM = 'changes where the package runner fetches the package from, or what it runs';

/** Name patterns (matched without regard to case: Windows names are case-insensitive) and why each is refused. */
const REFUSED_NAMES: readonly [RegExp, string][] = [
  [/^NODE_OPTIONS$/i, LOADS_CODE],
  [/^NODE_PATH$/i, LOADS_CODE],
  [/^(NODE_TLS_REJECT_UNAUTHORIZED|NODE_EXTRA_CA_CERTS)$/i, 'changes which servers Node trusts for downloads'],
  [/^LD_/i, LOADS_CODE],
  [/^DYLD_/i, LOADS_CODE],
  [/^(BASH_ENV|ENV)$/i, 'makes a shell run a file first'],
  [/^PATH$/i, 'changes which program a command name runs'],
  [/^PYTHON/i, LOADS_CODE],
  [/^NPM_CONFIG_/i, INSTALLS_FROM],
  [/^UV_/i, INSTALLS_FROM],
  [/^PIP_/i, INSTALLS_FROM],
];

/** Longer values are not readable in the confirmation: refused rather than shown cut. */
export const MAX_SHOWN_VALUE = 500;

/** The variables of `env` Symposium refuses to write, in the entry's order (empty: all may be shown and written). */
export function refusedVariables(env: Readonly<Record<string, string>>): RefusedVariable[] {
  const out: RefusedVariable[] = [];
  for (const [name, value] of Object.entries(env)) {
    const named = REFUSED_NAMES.find(([pattern]) => pattern.test(name));
    if (named) out.push({ name, reason: named[1] });
    else if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(value))
      out.push({ name, reason: 'its value holds control characters or line breaks' });
    else if (value.length > MAX_SHOWN_VALUE) out.push({ name, reason: `its value is longer than ${MAX_SHOWN_VALUE} characters` });
  }
  return out;
}

/** How each variable is shown before it is written: `NAME=value`, exactly. */
export const shownVariables = (env: Readonly<Record<string, string>>): string[] =>
  Object.entries(env).map(([name, value]) => `${name}=${value}`);

/** This machine: a registry file served from it cannot be changed on the way. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Why a registry file's URL is not read (undefined: it may be). */
export function registryUrlRefusal(url: URL): string | undefined {
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    return 'http:// registry files are refused (anyone on the way could change which agents and commands it lists); use https:// or a file:// copy';
  return undefined;
}

/** The second question before an archive the registry gives no SHA-256 for (undefined: it gives one). */
export function missingChecksumWarning(download: { url: string; sha256?: string }): string | undefined {
  if (download.sha256) return undefined;
  return `The registry gives no SHA-256 for ${download.url}: Symposium cannot check that the archive is the one the registry meant. Whoever can change that file${download.url.startsWith('http:') ? ', or the plain-http connection,' : ''} can run any program as you. Install anyway?`;
}
