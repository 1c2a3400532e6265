// A third-party ACP client drives the conductor: acpx (npm `acpx`, a headless ACP CLI) runs
// `conductor --components sparkle -- conductor eliza --deterministic` with HOME in a temp folder,
// offline. Its `--format json` output is the ACP traffic as NDJSON, in wire order, so the test can
// see that acpx's first prompt went out, waited behind Sparkle's embodiment turn, and was answered
// after it, and that the save_insight it asked for landed in $HOME/.sparkle/.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sparkleMarkOf } from '../../src/protocol/symposium-ext';
import { runAcpx, shellWord, type AcpxResult } from './acpx';
import { CONDUCTOR_JS, tempDir } from './harness';

interface Line {
  id?: number;
  method?: string;
  params?: { update?: { sessionUpdate?: string; content?: { text?: string } } };
  result?: { stopReason?: string };
}

function runSparkleAcpx(prompt: string, env: Record<string, string>, cwd: string): Promise<AcpxResult<Line>> {
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
  ];
  return runAcpx<Line>(agent.map(shellWord).join(' '), prompt, { cwd, env });
}

describe('Sparkle driven by a third-party ACP client (acpx)', function () {
  this.timeout(90_000);

  it("acpx's first prompt is answered after the embodiment turn, and its save_insight lands in $HOME/.sparkle", async () => {
    const home = tempDir('sparkle-acpx-home-');
    const ws = tempDir('sparkle-acpx-ws-');
    // The delay keeps the embodiment turn running when acpx's prompt arrives, so it is held.
    const env = { HOME: home, SPARKLE_DIR: '', ELIZACP_EMBODIMENT_DELAY_MS: '800' };
    const r = await runSparkleAcpx(
      'use tool sparkle::save_insight with {"insight_type":"PatternAnchor","content":"Said through acpx."}',
      env,
      ws,
    );
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
