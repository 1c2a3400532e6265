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

/** A process and how it was started, to tell it from a later process that got its pid. */
export interface ProcessId {
  pid: number;
  startTime: string;
  command: string;
}

function statOf(pid: number): { ppid: number; startTime: string; state: string } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, ppid: Number(fields[1]), startTime: fields[19]! };
  } catch {
    return undefined;
  }
}

/** `pid` and every live descendant of it: what a process started, for a test to see end. */
export function processTree(pid: number): ProcessId[] {
  const s = statOf(pid);
  if (!s || s.state === 'Z') return [];
  let command = '';
  try {
    command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return [];
  }
  return [{ pid, startTime: s.startTime, command }, ...descendantsOf(pid)];
}

/**
 * Every live descendant of `pid` (children, their children…), whatever process group or session
 * it moved to: an agent's helper that calls setsid is still found.
 */
export function descendantsOf(pid: number): ProcessId[] {
  if (process.platform !== 'linux') return [];
  const parentOf = new Map<number, number>();
  for (const d of fs.readdirSync('/proc')) if (/^\d+$/.test(d)) parentOf.set(Number(d), statOf(Number(d))?.ppid ?? 0);
  const out: ProcessId[] = [];
  const walk = (parent: number): void => {
    for (const [child, ppid] of parentOf) {
      if (ppid !== parent) continue;
      const s = statOf(child);
      if (!s || s.state === 'Z') continue;
      let command = '';
      try {
        command = fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      } catch {
        continue;
      }
      out.push({ pid: child, startTime: s.startTime, command });
      walk(child);
    }
  };
  walk(pid);
  return out;
}

/** Those of `processes` still running (the same process: same pid and start time, not a zombie). */
export function stillRunning(processes: readonly ProcessId[]): ProcessId[] {
  return processes.filter((p) => {
    const s = statOf(p.pid);
    return s !== undefined && s.state !== 'Z' && s.startTime === p.startTime;
  });
}
