// Live processes in a process group (Linux /proc). The conductor runs in a group of its own and
// starts its agent in another (so the agent's grandchildren can be ended with it).
// vscode-free, so both the plain-Node unit tests and the extension-host suites use it.
import * as fs from 'node:fs';

export function groupMembers(pgid: number): number[] {
  if (process.platform !== 'linux') return [];
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(fields[2]) === pgid && fields[0] !== 'Z';
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The direct children of `pid` (of its main thread, which is where Node spawns). */
export function childrenOf(pid: number): number[] {
  if (process.platform !== 'linux') return [];
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return []; // gone already
  }
}

/** The process group of `pid` (a group leader) plus the live groups its children lead (the agent's). */
export function groupsUnder(pid: number): number[] {
  if (process.platform !== 'linux') return [];
  return [pid, ...childrenOf(pid).filter((c) => groupMembers(c).length > 0)];
}
