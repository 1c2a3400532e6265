// What the conductor's log says about the language servers the ide-lsp adapter started.
import { execFileSync } from 'node:child_process';

/** The pids of the language servers the conductor started, in order (from its log). */
export function serverPids(stderr: string): { name: string; pid: number }[] {
  return [...stderr.matchAll(/started (\S+) \(pid (\d+)\)/g)].map((m) => ({ name: m[1]!, pid: Number(m[2]) }));
}

/** Whether gopls and go run here (Debian's packages; .ci/run installs them). */
export function goplsInstalled(): boolean {
  try {
    execFileSync('gopls', ['version'], { stdio: 'ignore', timeout: 10_000 });
    execFileSync('go', ['version'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** The servers a workspace-wide question starts for test-fixtures/workspace/ (one per language present), sorted. */
export function testWorkspaceServers(): string[] {
  return [...(goplsInstalled() ? ['gopls'] : []), 'pyright-langserver', 'typescript-language-server'];
}
