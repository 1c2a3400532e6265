// StderrTail (stderrTail.ts): lines rebuilt from pieces, each reported once, a bounded tail.
import * as assert from 'node:assert/strict';
import { StderrTail } from './stderrTail';

describe('StderrTail', () => {
  it('joins split lines, keeps the last lines, reports each line once', () => {
    const t = new StderrTail(3);
    const lines: string[] = [];
    t.push('a\nb', (l) => lines.push(l));
    t.push('b\nc\nd\ne', (l) => lines.push(l));
    assert.deepEqual(lines, ['a', 'bb', 'c', 'd']);
    assert.equal(t.text(), 'bb\nc\nd\ne', 'three complete lines plus the unfinished one');
    t.end((l) => lines.push(l));
    assert.equal(lines[lines.length - 1], 'e');
  });

  it('bounds each line and the whole tail, dropping the oldest lines first', () => {
    const t = new StderrTail(100, 5, 12);
    t.push('0123456789\n');
    assert.equal(t.text(), '01234…', 'a long line is cut');
    t.push('ab\ncd\n');
    assert.equal(t.text(), 'ab\ncd', 'the oldest line went to keep the tail within 12 characters');
    t.push('ef\ngh\n');
    assert.equal(t.text(), 'ab\ncd\nef\ngh');
    t.push('a line longer than the others\n');
    assert.equal(t.text(), 'gh\na lin…');
  });
});
