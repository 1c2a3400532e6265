// Live processes in a process group (Linux /proc): the conductor's group holds it and its agent.
// vscode-free, so both the plain-Node unit tests and the extension-host suites use it.
import * as fs from 'node:fs';

export function groupMembers(pgid: number): number[] {
  if (process.platform !== 'linux') return [];
  return fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((d) => {
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[2]) === pgid && fields[0] !== 'Z';
    } catch { return false; }
  }).map(Number);
}
