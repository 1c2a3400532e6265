// What the conductor's log says about the language servers the ide-lsp adapter started.

/** The pids of the language servers the conductor started, in order (from its log). */
export function serverPids(stderr: string): { name: string; pid: number }[] {
  return [...stderr.matchAll(/started (\S+) \(pid (\d+)\)/g)].map((m) => ({ name: m[1]!, pid: Number(m[2]) }));
}
