// A server's `$/progress` as the steps a waiting tool call shows.
import * as assert from 'node:assert/strict';
import { WorkDoneProgress, type ServerActivity } from './workDone';

describe('ide-lsp work-done progress', () => {
  it('begin / report / end become steps with title, message and percentage; malformed ones are ignored', () => {
    const progress = new WorkDoneProgress('typescript-language-server');
    const steps: ServerActivity[] = [];
    progress.onStep((s) => steps.push(s));
    progress.update({ token: 'a', value: { kind: 'begin', title: 'Initializing JS/TS language features…' } });
    assert.equal(progress.busy, true);
    progress.update({ token: 'a', value: { kind: 'report', message: '3/10 files', percentage: 40 } });
    assert.deepEqual(progress.latest, {
      server: 'typescript-language-server',
      message: 'Initializing JS/TS language features: 3/10 files — 40%',
      percentage: 40,
    });
    for (const bad of [null, { token: 'a' }, { token: {}, value: { kind: 'end' } }, { token: 'zzz', value: { kind: 'end' } }])
      assert.equal(progress.update(bad), undefined);
    progress.update({ token: 'a', value: { kind: 'end' } });
    assert.equal(progress.busy, false);
    assert.deepEqual(
      steps.map((s) => [s.message, s.percentage, s.finished]),
      [
        ['Initializing JS/TS language features…', undefined, undefined],
        ['Initializing JS/TS language features: 3/10 files — 40%', 40, undefined],
        ['Initializing JS/TS language features: done', undefined, true],
      ],
    );
  });
});
