// Cargo's version requirement semantics (the `semver` crate's rules), not npm's: a bare `1.2`
// means `^1.2`; `~`, `=`, `>`, `>=`, `<`, `<=`, wildcards (`*`, `1.*`, `1.2.x`) and
// comma-separated lists (all must match). A pre-release version matches only when a comparator
// names the same major.minor.patch with a pre-release, so `^1.0` never picks `1.1.0-beta`.

export interface Version {
  major: number;
  minor: number;
  patch: number;
  pre: string[];
  build: string;
}

type Op = 'exact' | 'greater' | 'greaterEq' | 'less' | 'lessEq' | 'tilde' | 'caret' | 'wildcard';

interface Comparator {
  op: Op;
  major: number;
  minor?: number;
  patch?: number;
  pre: string[];
}

export interface VersionReq {
  comparators: Comparator[];
  source: string;
}

const NUM = '(0|[1-9]\\d*)';
const IDENT = '[0-9A-Za-z-]+';
const VERSION_RE = new RegExp(`^${NUM}\\.${NUM}\\.${NUM}(?:-(${IDENT}(?:\\.${IDENT})*))?(?:\\+(${IDENT}(?:\\.${IDENT})*))?$`);

export function parseVersion(text: string): Version {
  const m = VERSION_RE.exec(text.trim());
  if (!m) throw new Error(`invalid version "${text}"`);
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), pre: m[4] ? m[4].split('.') : [], build: m[5] ?? '' };
}

function comparePre(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 0 : a.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn) {
      const d = Number(x) - Number(y);
      if (d !== 0) return Math.sign(d);
    } else if (xn !== yn) {
      return xn ? -1 : 1;
    } else if (x !== y) {
      return x < y ? -1 : 1;
    }
  }
  return 0;
}

/** Orders versions by precedence (build metadata ignored). */
export function compareVersions(a: Version, b: Version): number {
  return Math.sign(a.major - b.major) || Math.sign(a.minor - b.minor) || Math.sign(a.patch - b.patch) || comparePre(a.pre, b.pre);
}

const COMPARATOR_RE =
  /^(=|>=|>|<=|<|~|\^)?\s*(\*|x|X|\d+)(?:\.(\*|x|X|\d+))?(?:\.(\*|x|X|\d+))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z.-]+)?$/;

const OPS: Record<string, Op> = {
  '=': 'exact',
  '>': 'greater',
  '>=': 'greaterEq',
  '<': 'less',
  '<=': 'lessEq',
  '~': 'tilde',
  '^': 'caret',
};

export function parseVersionReq(text: string): VersionReq {
  const source = text.trim();
  if (source === '') throw new Error('empty version requirement');
  const comparators = source.split(',').map((part) => parseComparator(part.trim(), source));
  return { comparators, source };
}

function parseComparator(part: string, whole: string): Comparator {
  const m = COMPARATOR_RE.exec(part);
  if (!m) throw new Error(`invalid version requirement "${whole}": cannot read "${part}"`);
  const [, opText, majorText, minorText, patchText, preText] = m;
  const wild = (s: string | undefined): boolean => s === '*' || s === 'x' || s === 'X';
  if (wild(majorText)) {
    if (opText || minorText !== undefined) throw new Error(`invalid version requirement "${whole}": "${part}"`);
    return { op: 'wildcard', major: -1, pre: [] }; // `*`: any version
  }
  const major = Number(majorText);
  if (wild(minorText) || wild(patchText)) {
    if (opText && opText !== '=') throw new Error(`invalid version requirement "${whole}": wildcards take no operator`);
    if (wild(minorText) && patchText !== undefined && !wild(patchText))
      throw new Error(`invalid version requirement "${whole}": "${part}"`);
    return { op: 'wildcard', major, minor: wild(minorText) ? undefined : Number(minorText), pre: [] };
  }
  const minor = minorText === undefined ? undefined : Number(minorText);
  const patch = patchText === undefined ? undefined : Number(patchText);
  const pre = preText ? preText.split('.') : [];
  if (pre.length && patch === undefined) throw new Error(`invalid version requirement "${whole}": a pre-release needs major.minor.patch`);
  return { op: opText ? OPS[opText]! : 'caret', major, minor, patch, pre };
}

function matchesComparator(c: Comparator, v: Version): boolean {
  const lower = (): Version => ({ major: c.major, minor: c.minor ?? 0, patch: c.patch ?? 0, pre: c.pre, build: '' });
  const cmpLower = (): number => compareVersions(v, lower());
  switch (c.op) {
    case 'wildcard':
      if (c.major === -1) return true;
      return v.major === c.major && (c.minor === undefined || v.minor === c.minor);
    case 'exact':
      if (v.major !== c.major) return false;
      if (c.minor !== undefined && v.minor !== c.minor) return false;
      if (c.patch !== undefined && v.patch !== c.patch) return false;
      return c.patch === undefined ? true : comparePre(v.pre, c.pre) === 0;
    case 'greater':
      if (c.minor === undefined) return v.major > c.major;
      if (c.patch === undefined) return v.major > c.major || (v.major === c.major && v.minor > c.minor);
      return cmpLower() > 0;
    case 'greaterEq':
      return cmpLower() >= 0;
    case 'less':
      return cmpLower() < 0;
    case 'lessEq':
      if (c.minor === undefined) return v.major <= c.major;
      if (c.patch === undefined) return v.major < c.major || (v.major === c.major && v.minor <= c.minor);
      return cmpLower() <= 0;
    case 'tilde':
      if (cmpLower() < 0 || v.major !== c.major) return false;
      return c.minor === undefined || v.minor === c.minor;
    case 'caret': {
      if (cmpLower() < 0 || v.major !== c.major) return false;
      if (c.major > 0 || c.minor === undefined) return true;
      if (v.minor !== c.minor) return false;
      if (c.minor > 0 || c.patch === undefined) return true;
      return v.patch === c.patch;
    }
  }
}

/** Whether `v` satisfies every comparator of `req` (with Cargo's pre-release rule). */
export function satisfies(v: Version, req: VersionReq): boolean {
  if (!req.comparators.every((c) => matchesComparator(c, v))) return false;
  if (v.pre.length === 0) return true;
  // A pre-release only matches a comparator that opts into pre-releases of the same triple.
  return req.comparators.some((c) => c.pre.length > 0 && c.major === v.major && c.minor === v.minor && c.patch === v.patch);
}

/** True when the requirement explicitly pins one version (`=1.2.3`), which may pick a yanked one. */
export function pinsExactVersion(req: VersionReq): boolean {
  return req.comparators.length === 1 && req.comparators[0]!.op === 'exact' && req.comparators[0]!.patch !== undefined;
}

export interface Candidate {
  version: string;
  yanked?: boolean;
}

/** The highest candidate satisfying `req` (or the highest non-pre-release when `req` is undefined); yanked ones only when pinned. */
export function selectVersion(candidates: readonly Candidate[], req: VersionReq | undefined): string | undefined {
  let best: Version | undefined;
  let bestText: string | undefined;
  for (const c of candidates) {
    let v: Version;
    try {
      v = parseVersion(c.version);
    } catch {
      continue;
    }
    if (c.yanked && !(req && pinsExactVersion(req))) continue;
    if (req ? !satisfies(v, req) : v.pre.length > 0) continue;
    if (!best || compareVersions(v, best) > 0) {
      best = v;
      bestText = c.version;
    }
  }
  return bestText;
}
