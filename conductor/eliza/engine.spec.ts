// Unit tests for the pure parts of ElizACP: the ELIZA engine, hook recognition, chunking and the
// research helpers. No processes here; see eliza.process.spec.ts for the protocol tests.
import * as assert from 'node:assert/strict';
import { normalize, reflect, respond, stableHash } from './engine';
import { FALLBACKS, KEYWORDS } from './script';
import { describeAttachments, MAX_STREAM_CHUNKS, parseHook, pathInTitle, promptText, splitCommandLine } from './hooks';
import { parseElizaArgs } from './main';
import { chunkText } from './turn-context';
import { parseCargoToml, parseResearchRequest } from './research';

const det = { deterministic: true } as const;

describe('eliza engine', () => {
  it('is deterministic: same input, same reply; normalization ignores case and punctuation', () => {
    const a = respond('I am stuck on a bug in my parser', det);
    assert.equal(respond('I am stuck on a bug in my parser', det), a);
    assert.equal(respond('  i AM stuck on a bug in my parser!!! ', det), a);
  });

  it('reflects pronouns', () => {
    assert.equal(reflect('i am lost in my code'), 'you are lost in your code');
    assert.equal(reflect('you are mean to me'), 'I am mean to you');
    assert.equal(reflect('i was wrong about your types'), 'you were wrong about my types');
    assert.equal(reflect('thank you'), 'thank me');
  });

  it('expands contractions and drops punctuation', () => {
    assert.equal(normalize("I'm sure you're right, aren't you?"), 'i am sure you are right are not you');
    assert.equal(normalize('Why CAN\u2019T I fix this?!'), 'why cannot i fix this');
  });

  it('answers with reflected fragments from the matching rule', () => {
    assert.equal(respond('I am stuck on a bug in my parser', det), 'What makes you think the bug lives in your parser?');
    assert.equal(respond('I want to rewrite the parser in Rust', det), 'What would the parser gain from being rewritten in Rust?');
    assert.equal(respond("why can't I fix this", det), 'Do you think you should be able to fix this?');
    assert.equal(respond('I was happy', det), 'Were you really happy?');
  });

  it('prefers the highest-ranked keyword (borrow checker over rust over my)', () => {
    const borrow = KEYWORDS.find((k) => k.words.includes('borrow checker'));
    const reply = respond('my rust code fights the borrow checker', det);
    assert.ok(borrow?.rules[0]?.replies.includes(reply), reply);
  });

  it('has coding-themed rules: tests, refactoring, types', () => {
    const replies = (word: string): readonly string[] =>
      KEYWORDS.find((k) => k.words.includes(word))?.rules.flatMap((r) => r.replies) ?? [];
    assert.ok(replies('flaky').includes(respond('this test is flaky again', det)));
    const refactor = respond('should I refactor the payment module', det);
    assert.match(refactor, /the payment module/);
    assert.ok(replies('types').includes(respond('TypeScript types confuse me', det)));
  });

  it('skips templates whose capture is empty', () => {
    // "i am" with nothing after it must not produce "How long have you been ?"
    assert.doesNotMatch(respond('I am', det), /\(\d\)|\s\?$|been \?/);
  });

  it('falls back when nothing matches, and handles empty input', () => {
    assert.ok(FALLBACKS.includes(respond('hmm', det)));
    assert.equal(respond('', det), "You seem quiet today. What's on your mind?");
  });

  it('uses the random source when not deterministic, and verbose adds a remark', () => {
    const first = respond('hello', { deterministic: false, random: () => 0 });
    const last = respond('hello', { deterministic: false, random: () => 0.999 });
    assert.equal(first, 'How do you do. Please tell me about your code.');
    assert.equal(last, 'Hi there. Which bug brings you here?');
    const verbose = respond('hello', { deterministic: true, verbose: true });
    assert.ok(verbose.startsWith(respond('hello', det) + ' '));
  });

  it('has a stable hash (FNV-1a)', () => {
    assert.equal(stableHash(''), 0x811c9dc5);
    assert.equal(stableHash('a'), 0xe40c292c);
  });
});

describe('eliza hooks', () => {
  it('recognizes every hook phrase, case-insensitively', () => {
    assert.deepEqual(parseHook('List tools from files'), { kind: 'list-tools', server: 'files' });
    assert.deepEqual(parseHook('use tool my server::add with {"a": 1, "b": 2}'), {
      kind: 'use-tool',
      server: 'my server',
      tool: 'add',
      argsJson: '{"a": 1, "b": 2}',
    });
    assert.deepEqual(parseHook('use tool s::t'), { kind: 'use-tool', server: 's', tool: 't', argsJson: '{}' });
    assert.deepEqual(parseHook('request permission'), { kind: 'permission', title: 'an example edit', toolKind: 'edit' });
    assert.deepEqual(parseHook('Request permission for Delete everything'), {
      kind: 'permission',
      title: 'Delete everything',
      toolKind: 'edit',
    });
    assert.deepEqual(parseHook('read file src/a.ts'), { kind: 'read-file', path: 'src/a.ts' });
    assert.deepEqual(parseHook('read file "my file.txt" lines 2 5'), { kind: 'read-file', path: 'my file.txt', line: 2, limit: 5 });
    assert.deepEqual(parseHook('write file out.txt with two\nlines'), { kind: 'write-file', path: 'out.txt', content: 'two\nlines' });
    assert.deepEqual(parseHook('run command ls -la'), { kind: 'run-command', commandLine: 'ls -la' });
    assert.deepEqual(parseHook('SHOW PLAN'), { kind: 'plan' });
    assert.deepEqual(parseHook('/plan'), { kind: 'plan' });
    assert.deepEqual(parseHook('/story'), { kind: 'story' });
    assert.deepEqual(parseHook('Tell me a long story'), { kind: 'story' });
    assert.deepEqual(parseHook('/help'), { kind: 'help' });
    assert.deepEqual(parseHook('think about monads'), { kind: 'think', topic: 'monads' });
    assert.deepEqual(parseHook('demo tool call'), { kind: 'demo-tool-call' });
    assert.deepEqual(parseHook('stream 5 chunks'), { kind: 'stream', count: 5 });
    assert.deepEqual(parseHook('stream 999999999 chunks'), { kind: 'stream', count: MAX_STREAM_CHUNKS });
    assert.deepEqual(parseHook('crash'), { kind: 'crash', code: 3 });
    assert.deepEqual(parseHook('Crash with code 42'), { kind: 'crash', code: 42 });
    assert.deepEqual(parseHook('print garbage'), { kind: 'garbage' });
    assert.deepEqual(parseHook('echo meta'), { kind: 'echo-meta' });
    assert.deepEqual(parseHook('What did I attach?'), { kind: 'attachments' });
    assert.deepEqual(parseHook('demo read tool'), { kind: 'demo-read-tool' });
    assert.deepEqual(parseHook('What mode?'), { kind: 'what-mode' });
  });

  it('parses permission tool kinds; an unknown kind stays part of the title', () => {
    assert.deepEqual(parseHook('request permission for Read config.json kind read'), {
      kind: 'permission',
      title: 'Read config.json',
      toolKind: 'read',
    });
    assert.deepEqual(parseHook('request permission for rm -rf build KIND Execute'), {
      kind: 'permission',
      title: 'rm -rf build',
      toolKind: 'execute',
    });
    assert.deepEqual(parseHook('request permission kind fetch'), { kind: 'permission', title: 'an example edit', toolKind: 'fetch' });
    assert.deepEqual(parseHook('request permission for Pick a kind banana'), {
      kind: 'permission',
      title: 'Pick a kind banana',
      toolKind: 'edit',
    });
  });

  it('finds the file a permission title names', () => {
    assert.equal(pathInTitle('Edit main.rs'), 'main.rs');
    assert.equal(pathInTitle('Delete src/old'), 'src/old');
    assert.equal(pathInTitle('Read "my notes.md"'), 'my notes.md');
    assert.equal(pathInTitle('an example edit'), undefined);
    assert.equal(pathInTitle('Bump to 1.2'), undefined);
  });

  it('parses stop reasons with spaces or underscores, any case', () => {
    assert.deepEqual(parseHook('stop with refusal'), { kind: 'stop', reason: 'refusal' });
    assert.deepEqual(parseHook('Stop with Max Tokens.'), { kind: 'stop', reason: 'max_tokens' });
    assert.deepEqual(parseHook('stop with max_turn_requests'), { kind: 'stop', reason: 'max_turn_requests' });
    assert.deepEqual(parseHook('stop with MAX TURN REQUESTS'), { kind: 'stop', reason: 'max_turn_requests' });
    assert.deepEqual(parseHook('stop with banana'), { kind: 'stop', reason: 'banana' });
  });

  it('parses fail this prompt with an optional message that keeps its case', () => {
    assert.deepEqual(parseHook('fail this prompt'), { kind: 'fail', message: 'ElizACP failed this prompt as asked' });
    assert.deepEqual(parseHook('Fail this prompt.'), { kind: 'fail', message: 'ElizACP failed this prompt as asked' });
    assert.deepEqual(parseHook('fail this prompt with Quota Exceeded: try later'), { kind: 'fail', message: 'Quota Exceeded: try later' });
  });

  it('parses the command line flags', () => {
    assert.deepEqual(parseElizaArgs([]), { deterministic: false, httpMcp: true, legacyModels: false });
    assert.deepEqual(parseElizaArgs(['--legacy-models', '--no-http-mcp', '--deterministic']), {
      deterministic: true,
      httpMcp: false,
      legacyModels: true,
    });
    assert.throws(() => parseElizaArgs(['--legacy-model']), /unknown argument '--legacy-model'/);
  });

  it('does not fire on ordinary sentences', () => {
    assert.equal(parseHook('why does my app crash'), undefined);
    assert.equal(parseHook('I think about tests a lot'), undefined);
    assert.equal(parseHook('crash the server please'), undefined);
    assert.equal(parseHook('please stop with that'), undefined);
    assert.equal(parseHook('why did it fail this prompt'), undefined);
    assert.equal(parseHook('what model should I pick'), undefined);
  });

  it('extracts prompt text and attachments', () => {
    const blocks = [
      { type: 'text' as const, text: ' what did ' },
      { type: 'resource_link' as const, uri: 'file:///a.ts', name: 'a.ts' },
      { type: 'text' as const, text: 'i attach ' },
      { type: 'resource' as const, resource: { uri: 'file:///b.md', text: 'hi' } },
    ];
    assert.equal(promptText(blocks), 'what did \ni attach');
    assert.deepEqual(describeAttachments(blocks), ['resource_link file:///a.ts (a.ts)', 'resource file:///b.md']);
  });

  it('splits command lines with quotes and escapes', () => {
    assert.deepEqual(splitCommandLine(`node -e "console.log('a b')" x\\ y ''`), ['node', '-e', "console.log('a b')", 'x y', '']);
  });

  it('chunks replies into at least three pieces that concatenate back exactly', () => {
    for (const text of ['How do you do. Please tell me about your code.', 'Wrote /tmp/x', 'a b c', STORY_LIKE]) {
      const chunks = chunkText(text);
      assert.equal(chunks.join(''), text);
      assert.ok(chunks.length >= 3, `${chunks.length} chunks for ${text}`);
    }
    assert.deepEqual(chunkText(''), []);
  });
});

const STORY_LIKE = 'one two three four five six seven eight nine ten eleven twelve thirteen';

describe('eliza research helpers', () => {
  it('finds the crate name in plain or JSON prompts', () => {
    assert.deepEqual(parseResearchRequest('Research this.\ncrate_name: serde\nversion: 1.0.200'), { crate: 'serde', version: '1.0.200' });
    assert.deepEqual(parseResearchRequest('{"crate_name": "tokio", "prompt": "how?"}'), { crate: 'tokio' });
    assert.equal(parseResearchRequest('tell me about serde'), undefined);
  });

  it('reads name, version and description from Cargo.toml', () => {
    const toml =
      '[package]\nname = "demo"\nversion = "1.2.3"\ndescription = """\nA demo crate.\nSecond line.\n"""\n\n[dependencies]\nversion = "9"\n';
    assert.deepEqual(parseCargoToml(toml), { name: 'demo', version: '1.2.3', description: 'A demo crate.\nSecond line.' });
    assert.deepEqual(parseCargoToml('[package]\nname = "x"\n'), { name: 'x' });
  });
});
