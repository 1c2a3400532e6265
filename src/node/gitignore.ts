// A small .gitignore matcher for the IDE operations' text search (src/node/textSearch.ts): the
// search walks a folder the way `git grep`/ripgrep would, so build output and dependencies named
// in .gitignore files are not searched. Part of src/node/ (node:* only), shared by the extension
// host and, in the next issue, the conductor's language-server adapter.
//
// Supported: blank lines and `#` comments, `!` negation, a trailing `/` (folders only), patterns
// with a `/` before their end anchored at the .gitignore's folder, `*`, `?`, `**` and `[…]`
// classes. Not supported: escaped trailing spaces, and re-including a file inside an excluded
// folder (git cannot do that either).
import * as path from 'node:path';

interface Rule {
  negate: boolean;
  dirOnly: boolean;
  re: RegExp;
}

/** The rules of one .gitignore file, matched against paths relative to its folder. */
export class IgnoreRules {
  private readonly rules: Rule[];

  constructor(text: string) {
    this.rules = text.split(/\r?\n/).flatMap((line) => {
      const rule = parseLine(line);
      return rule ? [rule] : [];
    });
  }

  get empty(): boolean {
    return this.rules.length === 0;
  }

  /** true = ignored, false = explicitly re-included, undefined = no rule matched. */
  match(relative: string, isDir: boolean): boolean | undefined {
    const rel = relative.split(path.sep).join('/');
    let result: boolean | undefined;
    for (const rule of this.rules) {
      if (rule.dirOnly && !isDir) continue;
      if (rule.re.test(rel)) result = !rule.negate;
    }
    return result;
  }
}

function parseLine(raw: string): Rule | undefined {
  let line = raw.replace(/\s+$/, '');
  if (line === '' || line.startsWith('#')) return undefined;
  let negate = false;
  if (line.startsWith('!')) {
    negate = true;
    line = line.slice(1);
  } else if (line.startsWith('\\!') || line.startsWith('\\#')) {
    line = line.slice(1);
  }
  let dirOnly = false;
  if (line.endsWith('/')) {
    dirOnly = true;
    line = line.slice(0, -1);
  }
  if (line === '') return undefined;
  // A slash at the start or in the middle anchors the pattern at the .gitignore's folder;
  // otherwise it matches a name at any depth.
  const anchored = line.includes('/');
  if (line.startsWith('/')) line = line.slice(1);
  const body = globToRegex(line);
  const re = new RegExp(anchored ? `^${body}$` : `(?:^|/)${body}$`);
  return { negate, dirOnly, re };
}

function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        // `**/` = any number of folders (also none); a trailing `**` = everything below.
        if (glob[i + 2] === '/') {
          out += '(?:.*/)?';
          i += 2;
        } else {
          out += '.*';
          i += 1;
        }
      } else {
        out += '[^/]*';
      }
    } else if (ch === '?') {
      out += '[^/]';
    } else if (ch === '[') {
      const close = glob.indexOf(']', i + 1);
      if (close === -1) {
        out += '\\[';
      } else {
        const cls = glob
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        out += `[${cls}]`;
        i = close;
      }
    } else if (ch === '\\' && i + 1 < glob.length) {
      out += escapeRe(glob[++i]!);
    } else {
      out += escapeRe(ch);
    }
  }
  return out;
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
