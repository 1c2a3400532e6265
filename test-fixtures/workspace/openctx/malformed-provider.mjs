// A broken OpenCtx provider: answers with the wrong shapes (one good mention among bad ones, so
// the client must drop entries, not whole answers).
export default {
  meta: () => ({ name: 'Malformed', mentions: {}, items: {}, annotations: {} }),
  mentions: () => [{ title: 'Good mention', uri: 'https://malformed.example/good' }, { title: 42 }, 'text', { title: 'no uri' }],
  items: () => 'not a list',
  annotations: () => [{ uri: 'file:///x', range: { start: { line: -1, character: 0 }, end: {} }, item: { title: 'bad range' } }],
};
