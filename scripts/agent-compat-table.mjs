// Renders docs/agents.md's agent compatibility table from the real-agent tests' outcomes
// (test-results/agent-compat-*.json, written by conductor/test/realAgents/compat.ts): run it after
// `npm test` (or the real-agent specs alone) and commit the result. A feature a suite did not run
// for an agent shows "—"; a failure shows "✗", so the table never claims more than a test showed.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const RESULTS = join(ROOT, 'test-results');
const DOC = join(ROOT, 'docs', 'agents.md');
const BEGIN = '<!-- agent-compat:begin (scripts/agent-compat-table.mjs writes this table) -->';
const END = '<!-- agent-compat:end -->';

// Through the conductor first, then the chat's logic, then the real chat; agents in the order of the tests.
const SUITES = ['conductor', 'chat', 'e2e'];
const AGENT_ORDER = ['claude-code-acp', 'claude-agent-acp', 'gemini', 'qwen', 'codex', 'opencode'];
const rank = (list, x) => (list.includes(x) ? list.indexOf(x) : list.length);
const files = readdirSync(RESULTS)
  .filter((f) => /^agent-compat-.*\.json$/.test(f))
  .sort((a, b) => rank(SUITES, a.slice(13, -5).split('-')[0]) - rank(SUITES, b.slice(13, -5).split('-')[0]) || a.localeCompare(b));
if (files.length === 0) {
  console.error('no test-results/agent-compat-*.json: run the real-agent tests first');
  process.exit(1);
}
const agents = new Map(); // agent → Map(feature → outcome)
const features = [];
for (const f of files) {
  const { suite, outcomes } = JSON.parse(readFileSync(join(RESULTS, f), 'utf8'));
  for (const [agent, byTest] of Object.entries(outcomes)) {
    const row = agents.get(agent) ?? new Map();
    agents.set(agent, row);
    for (const [title, outcome] of Object.entries(byTest)) {
      const feature = `${title} (${suite})`;
      if (!features.includes(feature)) features.push(feature);
      row.set(feature, outcome);
    }
  }
}
const names = [...agents.keys()].sort((a, b) => rank(AGENT_ORDER, a) - rank(AGENT_ORDER, b));
const cell = (o) => (o === 'passed' ? '✓' : o === 'failed' ? '✗' : '—');
const lines = [
  `| feature | ${names.join(' | ')} |`,
  `|---|${names.map(() => '---').join('|')}|`,
  ...features.map((f) => `| ${f} | ${names.map((a) => cell(agents.get(a).get(f))).join(' | ')} |`),
];
const doc = readFileSync(DOC, 'utf8');
const at = doc.indexOf(BEGIN);
const end = doc.indexOf(END);
if (at < 0 || end < at) {
  console.error(`docs/agents.md has no ${BEGIN} … ${END} section`);
  process.exit(1);
}
writeFileSync(DOC, `${doc.slice(0, at + BEGIN.length)}\n\n${lines.join('\n')}\n\n${doc.slice(end)}`);
console.log(`docs/agents.md: ${names.length} agents × ${features.length} features from ${files.join(', ')}`);
