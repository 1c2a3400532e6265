// acpx (npm `acpx`, a headless third-party ACP client) as the tests run it: `acpx --agent '<command
// line>' --format json --approve-all exec <prompt>`, whose stdout is the ACP traffic as NDJSON, in
// wire order. Installed by scripts/test-tools-install.sh (outside devDependencies: see its header).
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

export const ACPX = resolve(__dirname, '../../.test-tools/node_modules/acpx/dist/cli.js');

/** One word of a POSIX command line (acpx splits `--agent` like a shell). */
export const shellWord = (s: string): string => (/[\s"'{}\\$`]/.test(s) ? `'${s.replace(/'/g, `'\\''`)}'` : s);

export interface AcpxResult<Line> {
  code: number | null;
  /** Every JSON line acpx printed (the ACP messages), in order. */
  lines: Line[];
  stderr: string;
}

/** Runs acpx once with `agent` (a command line) in `cwd`, `env` added to this process's environment. */
export function runAcpx<Line = unknown>(
  agent: string,
  prompt: string,
  options: { cwd: string; env?: Record<string, string>; timeoutSeconds?: number },
): Promise<AcpxResult<Line>> {
  const timeout = String(options.timeoutSeconds ?? 60);
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      [ACPX, '--agent', agent, '--format', 'json', '--approve-all', '--timeout', timeout, 'exec', prompt],
      {
        cwd: options.cwd,
        env: { ...process.env, ...options.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (out += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => (err += t));
    child.on('exit', (code) =>
      done({
        code,
        stderr: err,
        lines: out
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Line),
      }),
    );
  });
}
