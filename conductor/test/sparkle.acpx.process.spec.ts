// A third-party ACP client drives the conductor: acpx (npm `acpx`, a headless ACP CLI) runs
// `conductor --components sparkle -- conductor eliza --deterministic` with HOME in a temp folder,
// offline. Its `--format json` output is the ACP traffic as NDJSON, in wire order, so the test can
// see that acpx's first prompt went out, waited behind Sparkle's embodiment turn, and was answered
// after it, and that the save_insight it asked for landed in $HOME/.sparkle/.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sparkleMarkOf } from '../../src/protocol/symposium-ext';
import { CONDUCTOR_JS, tempDir } from './harness';

// Installed by scripts/test-tools-install.sh (outside devDependencies: see its header).
const ACPX = resolve(__dirname, '../../.test-tools/node_modules/acpx/dist/cli.js');

interface Line {
  id?: number;
  method?: string;
  params?: { update?: { sessionUpdate?: string; content?: { text?: string } } };
  result?: { stopReason?: string };
}

function runAcpx(
  prompt: string,
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number | null; lines: Line[]; stderr: string }> {
  const q = (s: string): string => (/[\s"']/.test(s) ? JSON.stringify(s) : s);
  const agent = [
    process.execPath,
    CONDUCTOR_JS,
    '--components',
    'sparkle',
    '--',
    process.execPath,
    CONDUCTOR_JS,
    'eliza',
    '--deterministic',
  ]
    .map(q)
    .join(' ');
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      [ACPX, '--agent', agent, '--format', 'json', '--approve-all', '--timeout', '60', 'exec', prompt],
      { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
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

describe('Sparkle driven by a third-party ACP client (acpx)', function () {
  this.timeout(90_000);

  it("acpx's first prompt is answered after the embodiment turn, and its save_insight lands in $HOME/.sparkle", async () => {
    const home = tempDir('sparkle-acpx-home-');
    const ws = tempDir('sparkle-acpx-ws-');
    // The delay keeps the embodiment turn running when acpx's prompt arrives, so it is held.
    const env = { HOME: home, SPARKLE_DIR: '', ELIZACP_EMBODIMENT_DELAY_MS: '800' };
    const r = await runAcpx('use tool sparkle::save_insight with {"insight_type":"PatternAnchor","content":"Said through acpx."}', env, ws);
    assert.equal(r.code, 0, r.stderr);
    const promptAt = r.lines.findIndex((l) => l.method === 'session/prompt');
    const promptId = r.lines[promptAt]!.id;
    const marked = r.lines
      .map((l, i) => [l, i] as const)
      .filter(([l]) => l.method === 'session/update' && sparkleMarkOf(l.params?.update) === 'embodiment');
    const answerChunks = r.lines
      .map((l, i) => [l, i] as const)
      .filter(
        ([l]) =>
          l.method === 'session/update' && l.params?.update?.sessionUpdate === 'agent_message_chunk' && !sparkleMarkOf(l.params.update),
      );
    const responseAt = r.lines.findIndex((l) => l.id === promptId && l.result !== undefined);
    assert.equal(marked.map(([l]) => l.params?.update?.content?.text ?? '').join(''), 'Embodiment received.');
    assert.ok(promptAt < marked[0]![1], 'acpx sent its prompt while the embodiment was still running');
    assert.ok(marked[marked.length - 1]![1] < answerChunks[0]![1], 'the whole embodiment turn came before the answer');
    assert.ok(answerChunks[answerChunks.length - 1]![1] < responseAt, "then the prompt's response");
    assert.equal(r.lines[responseAt]!.result!.stopReason, 'end_turn');
    assert.match(
      answerChunks.map(([l]) => l.params?.update?.content?.text ?? '').join(''),
      /^✨ Insight saved \(PatternAnchor\) to .*\.sparkle\/pattern-anchors\.md\.$/,
    );
    assert.match(readFileSync(join(home, '.sparkle', 'pattern-anchors.md'), 'utf8'), /## .* UTC - Pattern Anchor\n\nSaid through acpx\.\n/);
  });
});
