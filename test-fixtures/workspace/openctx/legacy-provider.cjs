// An OpenCtx provider in protocol 0.1's shape (meta answers only `selector`), written as
// CommonJS: the client must accept both. Annotates the first line of Markdown files.
module.exports = {
  meta() {
    return { selector: [{ path: '**/*.md' }] };
  },
  mentions(params) {
    return [{ title: `Legacy note ${params.query ?? ''}`.trim(), uri: 'https://legacy.example/note' }];
  },
  items() {
    return [{ title: 'Legacy note', ai: { content: 'from the legacy provider' } }];
  },
  annotations(params) {
    return [{ uri: params.uri, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, item: { title: 'Legacy' } }];
  },
};
